// Package notify raises the window's desktop notifications (a scheduled
// run that finished, failed or waits for approval) so that a click on one
// opens what it is about. Fyne's own notifications cannot say they were
// clicked, so on Linux and the BSDs the notification goes straight to the
// desktop's notification server over D-Bus
// (org.freedesktop.Notifications) with a default action, and its
// ActionInvoked signal runs the click's function; elsewhere, or with no
// session bus, Fyne's notification is shown and a click brings up the
// window only.
package notify
