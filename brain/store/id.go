package store

import (
	"fmt"
	"strconv"
	"strings"
)

// ID identifies a conversation. It is the conversations bucket's sequence
// number; it prints as "c42" so people and the model can quote it.
type ID uint64

// String returns the short form, e.g. "c42".
func (id ID) String() string { return "c" + strconv.FormatUint(uint64(id), 10) }

// ParseID accepts "c42", "C42" or "42".
func ParseID(s string) (ID, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimPrefix(strings.TrimPrefix(t, "c"), "C")
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("parse %q: %w", s, ErrInvalidID)
	}
	return ID(n), nil
}

// MarshalText makes IDs appear as "c42" in JSON.
func (id ID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText accepts what ParseID accepts.
func (id *ID) UnmarshalText(b []byte) error {
	v, err := ParseID(string(b))
	if err != nil {
		return err
	}
	*id = v
	return nil
}
