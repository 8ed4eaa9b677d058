//go:build linux || freebsd || openbsd || netbsd

package notify

import (
	"fmt"
	"log/slog"
	"sync"

	"fyne.io/fyne/v2"
	"github.com/godbus/dbus/v5"
)

// The notification server's names (Desktop Notifications Specification).
const (
	busName    = "org.freedesktop.Notifications"
	objectPath = "/org/freedesktop/Notifications"
	iface      = "org.freedesktop.Notifications"
)

// maxKept bounds the clicks remembered: a server that never says a
// notification closed must not make the map grow for ever.
const maxKept = 64

// New is the desktop's notification server over the session bus, each
// notification clickable; with no session bus or server it is Fyne's.
func New(a fyne.App, log *slog.Logger) Func {
	n, err := dial()
	if err != nil {
		log.Info("desktop notifications will not open what they are about", "error", err)
		return Fyne(a)
	}
	fallback := Fyne(a)
	return func(title, body string, open func()) {
		if err := n.notify(title, body, open); err != nil {
			log.Warn("desktop notification", "error", err)
			fallback(title, body, open)
		}
	}
}

type server struct {
	conn *dbus.Conn
	obj  dbus.BusObject

	mu    sync.Mutex
	opens map[uint32]func()
	order []uint32
}

func dial() (*server, error) {
	// The shared session connection: it lives as long as the process,
	// so it is never closed here.
	conn, err := dbus.SessionBus()
	if err != nil {
		return nil, fmt.Errorf("session bus: %w", err)
	}
	for _, member := range []string{"ActionInvoked", "NotificationClosed"} {
		if err := conn.AddMatchSignal(dbus.WithMatchObjectPath(objectPath), dbus.WithMatchInterface(iface), dbus.WithMatchMember(member)); err != nil {
			return nil, fmt.Errorf("listen for %s: %w", member, err)
		}
	}
	s := &server{conn: conn, obj: conn.Object(busName, objectPath), opens: map[uint32]func(){}}
	ch := make(chan *dbus.Signal, 16)
	conn.Signal(ch)
	go s.listen(ch)
	return s, nil
}

func (s *server) notify(title, body string, open func()) error {
	var actions []string
	if open != nil {
		// "default" is the click on the notification itself.
		actions = []string{"default", "Open"}
	}
	var id uint32
	err := s.obj.Call(iface+".Notify", 0, "Wrasse", uint32(0), "", title, body, actions,
		map[string]dbus.Variant{}, int32(-1)).Store(&id)
	if err != nil {
		return fmt.Errorf("notify: %w", err)
	}
	if open == nil {
		return nil
	}
	s.mu.Lock()
	s.opens[id] = open
	s.order = append(s.order, id)
	if len(s.order) > maxKept {
		delete(s.opens, s.order[0])
		s.order = s.order[1:]
	}
	s.mu.Unlock()
	return nil
}

// listen follows the server's signals for as long as the process runs.
func (s *server) listen(ch <-chan *dbus.Signal) {
	for sig := range ch {
		if len(sig.Body) < 1 {
			continue
		}
		id, ok := sig.Body[0].(uint32)
		if !ok {
			continue
		}
		switch sig.Name {
		case iface + ".ActionInvoked":
			s.mu.Lock()
			open := s.opens[id]
			delete(s.opens, id)
			s.mu.Unlock()
			if open != nil {
				open()
			}
		case iface + ".NotificationClosed":
			s.mu.Lock()
			delete(s.opens, id)
			s.mu.Unlock()
		}
	}
}
