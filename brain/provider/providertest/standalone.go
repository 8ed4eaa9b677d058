package providertest

import (
	"errors"
	"fmt"
	"sync"
)

// reporter is what a Model needs of a testing.TB: a test's, or a
// standalone one's (StartModel).
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// standalone records complaints instead of failing a test.
type standalone struct {
	mu   sync.Mutex
	errs []error
}

func (s *standalone) Helper()        {}
func (s *standalone) Cleanup(func()) {}
func (s *standalone) Errorf(format string, args ...any) {
	s.add(fmt.Errorf(format, args...))
}
func (s *standalone) Fatal(args ...any) { s.add(errors.New(fmt.Sprint(args...))) }
func (s *standalone) Fatalf(format string, args ...any) {
	s.add(fmt.Errorf(format, args...))
}

func (s *standalone) add(err error) {
	s.mu.Lock()
	s.errs = append(s.errs, err)
	s.mu.Unlock()
}

// StartModel starts a Model outside a test, for a benchmark program: what
// would fail a test (a script that ran out, an invalid Reply) is kept for
// Err instead. The caller must Close it.
func StartModel(f Format, opts ...Option) (*Model, error) {
	if f != OpenAI && f != Anthropic {
		return nil, fmt.Errorf("providertest: unknown format %q (use providertest.OpenAI or providertest.Anthropic)", f)
	}
	rep := &standalone{}
	m := newModel(rep, f, opts...)
	if err := rep.err(); err != nil {
		m.Close()
		return nil, err
	}
	m.standalone = rep
	return m, nil
}

// Err returns what went wrong in a Model from StartModel (nil for one from
// NewModel, whose test already failed).
func (m *Model) Err() error {
	if m.standalone == nil {
		return nil
	}
	return m.standalone.err()
}

func (s *standalone) err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return errors.Join(s.errs...)
}
