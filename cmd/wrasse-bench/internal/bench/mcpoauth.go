package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/brain/store"
	wmcp "github.com/wrasse-app/wrasse/plugins/mcp"
	"github.com/wrasse-app/wrasse/plugins/mcp/signin"
)

// benchToken is the access token the protected endpoint accepts.
const benchToken = "bench-access-token-0123456789"

// mcpOAuth times connect + list tools against a local streamable-HTTP
// server (the Go SDK's) twice: at a path behind a bearer-token check,
// with the token stored as Wrasse stores a sign-in (signin's record in the
// workspace database's secret mcp-oauth.<name>), and at a path without
// auth. Both go through Wrasse's client; the difference is the stored
// sign-in (read, decoded, attached to every request).
func mcpOAuth(ctx context.Context, runs int) Row {
	const measure = "connect + list tools, streamable HTTP, OAuth with a stored token (signed in / no auth)"
	dir, err := os.MkdirTemp("", "wrasse-bench-oauth-")
	if err != nil {
		return errorRow(sectionMCP, measure, err)
	}
	defer os.RemoveAll(dir)

	srv := benchServer()
	mcpHandler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	var authorized, refused atomic.Int64
	mux := http.NewServeMux()
	mux.Handle("/open/mcp", mcpHandler)
	mux.Handle("/protected/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+benchToken {
			refused.Add(1)
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		authorized.Add(1)
		mcpHandler.ServeHTTP(w, r)
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return errorRow(sectionMCP, measure, err)
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	base := "http://" + ln.Addr().String()

	db, err := store.Open(filepath.Join(dir, "wrasse.db"), store.Options{NoSync: true})
	if err != nil {
		return errorRow(sectionMCP, measure, err)
	}
	defer db.Close()
	// The record a sign-in leaves (signin's format), valid for a day.
	rec, _ := json.Marshal(map[string]any{"origin": base, "client_id": "bench-client", "token_url": base + "/token",
		"access_token": benchToken, "token_type": "Bearer", "expiry": time.Now().Add(24 * time.Hour)})
	if err := db.SetSecret(signin.SecretName("protected"), string(rec)); err != nil {
		return errorRow(sectionMCP, measure, err)
	}

	open, openReg, err := mcpCapability(dir, "open", "  url: "+base+"/open/mcp\n")
	if err != nil {
		return errorRow(sectionMCP, measure, err)
	}
	defer openReg.Close()
	protected, protReg, err := mcpCapability(dir, "protected", "  url: "+base+"/protected/mcp\n")
	if err != nil {
		return errorRow(sectionMCP, measure, err)
	}
	defer protReg.Close()
	// A missing or refused token must fail the run, not open a browser.
	loader := wmcp.NewLoader(wmcp.Options{Tokens: db, OpenURL: func(context.Context, string) error {
		return errors.New("the stored token was refused: the benchmark does not sign in")
	}})
	signedIn := func() (time.Duration, error) { return wrasseConnectList(ctx, loader, protected, dir) }
	noAuth := func() (time.Duration, error) { return wrasseConnectList(ctx, loader, open, dir) }
	ma, mb, err := alternate(runs, signedIn, noAuth)
	if err != nil {
		return errorRow(sectionMCP, measure, err)
	}
	if refused.Load() > 0 || authorized.Load() == 0 {
		return errorRow(sectionMCP, measure, fmt.Errorf("the protected server refused %d requests and took %d: the stored token was not used", refused.Load(), authorized.Load()))
	}
	ratio := float64(ma) / float64(mb)
	return Row{Section: sectionMCP, Measure: measure, Value: fmt.Sprintf("%s (%.2f×)", FormatDuration(ma), ratio),
		Baseline: "no auth " + FormatDuration(mb), Target: fmt.Sprintf("≤ %.1f×", mcpRatioTarget), Pass: verdict(ratio <= mcpRatioTarget),
		Number: ratio, Unit: "ratio", Note: fmt.Sprintf("median of %d runs each, alternating; %d authorized requests, none refused", runs, authorized.Load())}
}

// alternate runs a and b alternately (each timing itself) and returns
// their medians.
func alternate(runs int, a, b func() (time.Duration, error)) (time.Duration, time.Duration, error) {
	var da, db []time.Duration
	for range runs {
		for _, side := range []struct {
			f  func() (time.Duration, error)
			ds *[]time.Duration
		}{{a, &da}, {b, &db}} {
			d, err := side.f()
			if err != nil {
				return 0, 0, err
			}
			*side.ds = append(*side.ds, d)
		}
	}
	return Median(da), Median(db), nil
}
