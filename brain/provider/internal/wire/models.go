package wire

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// MaxModels bounds a model listing: a server whose pages never end must
// not keep the caller paging forever.
const MaxModels = 10000

// Pager is what both SDKs' auto-pagers offer.
type Pager[T any] interface {
	Next() bool
	Current() T
	Err() error
}

// ListModels drains pager (whose requests ran through x.Middleware) into
// ModelInfos sorted by ID, one per ID; info maps one SDK model. A failure
// is classified like a Stream's, except that a 404 means the server keeps
// no model list (many OpenAI-compatible proxies), not that a model is
// missing.
func ListModels[T any](ctx context.Context, log *slog.Logger, cls *Classifier, x *Exchange, pager Pager[T], info func(T) provider.ModelInfo) ([]provider.ModelInfo, error) {
	var out []provider.ModelInfo
	for len(out) < MaxModels && pager.Next() {
		m := info(pager.Current())
		if m.ID == "" {
			continue
		}
		if m.DisplayName == "" {
			m.DisplayName = m.ID
		}
		out = append(out, m)
	}
	if err := pager.Err(); err != nil {
		perr := cls.list(ctx, x, err)
		log.DebugContext(ctx, "model list error", "kind", perr.Kind, "status", perr.Status, "message", perr.Message)
		return nil, perr
	}
	slices.SortStableFunc(out, func(a, b provider.ModelInfo) int { return cmp.Compare(a.ID, b.ID) })
	out = slices.CompactFunc(out, func(a, b provider.ModelInfo) bool { return a.ID == b.ID })
	log.DebugContext(ctx, "model list", "models", len(out))
	return out, nil
}

func (c *Classifier) list(ctx context.Context, x *Exchange, err error) *provider.Error {
	if perr := c.Context(ctx, err); perr != nil {
		return perr
	}
	if x.Status >= 400 {
		e := c.Status(x.Status, x.Header, x.Body, err)
		if e.Kind == provider.ErrNotFound {
			e.Message = fmt.Sprintf("the server at %s does not list its models (HTTP 404): type the model name instead, and check that the base URL is right", c.BaseURL)
		}
		return e
	}
	if !x.Responded() || errors.Is(err, provider.ErrCrossOriginRedirect) {
		return c.Transport(err, false)
	}
	return c.wrap(provider.ErrBadStream, 0,
		fmt.Sprintf("the model list from %s could not be read: %s", c.BaseURL, c.redact(err.Error())), err)
}
