// Package taskform is the editor of one scheduled task, shared by the
// Tasks settings page (new and edit) and the chat's proposal card (edit
// before accepting): name, prompt, schedule with its next run shown as it
// is typed, model, capabilities, what a call that needs approval does,
// and on/off. It checks through the core (assistant.App.CheckSchedule)
// and saves through a function its caller gives.
package taskform
