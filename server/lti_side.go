package server

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"pigclass/server/lti"
	"pigclass/server/store"
)

// ltiSide is the server's part in LTI 1.3 (server/lti): the platforms'
// keys, fetched and kept, and the origins that may show pigclass in a
// frame.
type ltiSide struct {
	st     *store.Store
	keys   *lti.Keys
	tokens *lti.Tokens
	client *http.Client
	stop   chan struct{} // ends the scores' loop
	making sync.Mutex    // one resource link's class made at a time

	mu      sync.Mutex
	origins []string // besides 'self': the platforms' and those a launch came from
}

func newLTISide(st *store.Store, now func() time.Time) *ltiSide {
	client := &http.Client{Timeout: 10 * time.Second}
	return &ltiSide{st: st, keys: &lti.Keys{Client: client, Now: now}, tokens: &lti.Tokens{Client: client, Now: now}, client: client, stop: make(chan struct{})}
}

// load allows the registered platforms to frame pages.
func (l *ltiSide) load(ctx context.Context) error {
	ps, err := l.st.Platforms(ctx, "")
	for _, p := range ps {
		l.allowFrames(p.Issuer, p.LoginURL)
	}
	return err
}

// allowFrames adds the origins of addresses to those that may show
// pigclass's pages in a frame.
func (l *ltiSide) allowFrames(addrs ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, a := range addrs {
		u, err := url.Parse(a)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			continue
		}
		o := u.Scheme + "://" + u.Host
		if !slices.Contains(l.origins, o) {
			l.origins = append(l.origins, o)
		}
	}
}

// frameAncestors is the CSP's frame-ancestors: none until pigclass is
// registered with a platform, then its own pages and the platforms'.
func (l *ltiSide) frameAncestors() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.origins) == 0 {
		return "'none'"
	}
	return "'self' " + strings.Join(l.origins, " ")
}
