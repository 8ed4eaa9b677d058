package store

import (
	"context"
	"fmt"
	"log/slog"
)

// RedactingHandler hands records to another handler with every secret,
// and its encodings, replaced by "[redacted:NAME]": the message and each
// attribute's text (errors and other values by how they print). red is
// asked for the redactor of each record, so secrets saved later are
// covered; nil redacts nothing. Attributes bound with WithAttrs are
// redacted when they are bound.
func RedactingHandler(h slog.Handler, red func() *Redactor) slog.Handler {
	return &redactingHandler{h: h, red: red}
}

type redactingHandler struct {
	h   slog.Handler
	red func() *Redactor
}

func (r *redactingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return r.h.Enabled(ctx, l)
}

func (r *redactingHandler) Handle(ctx context.Context, rec slog.Record) error {
	red := r.red()
	if red == nil {
		return r.h.Handle(ctx, rec)
	}
	out := slog.NewRecord(rec.Time, rec.Level, red.String(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(red, a))
		return true
	})
	return r.h.Handle(ctx, out)
}

func (r *redactingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	red := r.red()
	if red != nil {
		redacted := make([]slog.Attr, len(attrs))
		for i, a := range attrs {
			redacted[i] = redactAttr(red, a)
		}
		attrs = redacted
	}
	return &redactingHandler{h: r.h.WithAttrs(attrs), red: r.red}
}

func (r *redactingHandler) WithGroup(name string) slog.Handler {
	return &redactingHandler{h: r.h.WithGroup(name), red: r.red}
}

// redactAttr redacts a's text; a value whose printed form holds no secret
// is kept as it was.
func redactAttr(red *Redactor, a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, red.String(v.String()))
	case slog.KindGroup:
		attrs := v.Group()
		out := make([]any, len(attrs))
		for i, g := range attrs {
			out[i] = redactAttr(red, g)
		}
		return slog.Group(a.Key, out...)
	case slog.KindAny:
		text := fmt.Sprint(v.Any())
		if s := red.String(text); s != text {
			return slog.String(a.Key, s)
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
