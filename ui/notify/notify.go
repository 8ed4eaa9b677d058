package notify

import "fyne.io/fyne/v2"

// Func shows a notification titled title with body; open runs, on the
// notifier's own goroutine, when the person clicks it (nil: nothing).
type Func func(title, body string, open func())

// Fyne is the notification of app a: a click cannot be followed.
func Fyne(a fyne.App) Func {
	return func(title, body string, _ func()) {
		a.SendNotification(fyne.NewNotification(title, body))
	}
}
