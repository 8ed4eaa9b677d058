package elicit

import (
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// Parse reads what the person typed into a text field of type f as the
// value the answer carries: a string, an int64 for integers, a float64
// for numbers. The error is the message shown under the field. An empty
// s is not parsed (the caller decides between default, absent and
// required).
func Parse(f mcp.Field, s string) (any, error) {
	switch f.Type {
	case "integer":
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return nil, errors.New("Enter a whole number.")
		}
		if err := inRange(f, float64(n)); err != nil {
			return nil, err
		}
		return n, nil
	case "number":
		n, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return nil, errors.New("Enter a number.")
		}
		if err := inRange(f, n); err != nil {
			return nil, err
		}
		return n, nil
	}
	n := utf8.RuneCountInString(s)
	if f.MinLength != nil && n < *f.MinLength {
		return nil, fmt.Errorf("At least %d characters.", *f.MinLength)
	}
	if f.MaxLength != nil && n > *f.MaxLength {
		return nil, fmt.Errorf("At most %d characters.", *f.MaxLength)
	}
	if err := checkFormat(f.Format, s); err != nil {
		return nil, err
	}
	return s, nil
}

// inRange checks a number against the field's minimum and maximum.
func inRange(f mcp.Field, n float64) error {
	switch {
	case f.Minimum != nil && f.Maximum != nil && (n < *f.Minimum || n > *f.Maximum):
		return fmt.Errorf("Between %s and %s.", num(*f.Minimum), num(*f.Maximum))
	case f.Minimum != nil && n < *f.Minimum:
		return fmt.Errorf("At least %s.", num(*f.Minimum))
	case f.Maximum != nil && n > *f.Maximum:
		return fmt.Errorf("At most %s.", num(*f.Maximum))
	}
	return nil
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// checkFormat checks the string formats the spec allows a form to ask
// for; an unknown format is not checked (the server checks its own).
func checkFormat(format, s string) error {
	switch format {
	case "email":
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
			return errors.New("Enter an email address, such as name@example.com.")
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || u.Scheme == "" {
			return errors.New("Enter a full address, such as https://example.com/.")
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return errors.New("Enter a date as YYYY-MM-DD.")
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return errors.New("Enter a date and time as YYYY-MM-DDTHH:MM:SSZ.")
		}
	}
	return nil
}

// text is how a default shows in a text field.
func text(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		return num(v)
	}
	return fmt.Sprint(v)
}
