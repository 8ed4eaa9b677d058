package providertest

import (
	"net/http"
	"strings"
)

// RemoteLooking is a client that sends every request to the server at
// target (a fake's URL), whatever host and scheme the request names: a
// provider configured for a remote host (whose waits differ from a local
// server's) talks to a local fake.
func RemoteLooking(target string) *http.Client {
	return &http.Client{Transport: rewriteHost{target: strings.TrimPrefix(target, "http://")}}
}

type rewriteHost struct{ target string }

func (rw rewriteHost) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host, r.Host = "http", rw.target, rw.target
	return http.DefaultTransport.RoundTrip(r)
}
