package manage

import "github.com/wrasse-app/wrasse/cerebellum"

// SetTuning applies new pinned capabilities and budgets: the snapshot it
// publishes marks the new pins, and the next index and tool-budget check
// use the new budgets, without reopening the registry. Names pinned but not
// installed are allowed (they take effect once installed) and logged. The
// mechanism stays in the registry (Hook.ApplyTuning), since it swaps the
// tuning the engine reads under the lock that guards snapshot assembly;
// reading it is the run-time Registry.Tuning.
func (m *Manager) SetTuning(t cerebellum.Tuning) error { return m.hook.ApplyTuning(t) }
