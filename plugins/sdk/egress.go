package sdk

import "context"

// HostCheck decides, during one tool call, whether the call may reach the
// host of rawURL (a URL, or "host:port" for a raw connection). It returns
// nil to allow and an error wrapping ErrHostNotAllowed to refuse. It may
// block while the person is asked, and must return when ctx ends.
type HostCheck func(ctx context.Context, rawURL string) error

type hostCheckKey struct{}

// WithHostCheck returns ctx carrying check. The host installs it on the
// context of each tool call, so that a plugin's network access mid-call
// (a redirect, a host the arguments did not name) is decided for the
// conversation the call belongs to.
func WithHostCheck(ctx context.Context, check HostCheck) context.Context {
	return context.WithValue(ctx, hostCheckKey{}, check)
}

// CheckHost asks the check installed on ctx whether the call may reach
// the host of rawURL. Without one it refuses: network access that no one
// can answer for fails closed.
func CheckHost(ctx context.Context, rawURL string) error {
	if check, ok := ctx.Value(hostCheckKey{}).(HostCheck); ok && check != nil {
		return check(ctx, rawURL)
	}
	return ErrHostNotAllowed
}
