package platforms

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"pigclass/server/lti"
	"pigclass/server/store"
)

// Which sites may show pigclass's pages in a frame (the CSP's
// frame-ancestors, issue 79): a page of a class a platform's link opened,
// that platform only; a page of any other class, none; a page of no
// class (the front page, the help, a launch's own answer), the platforms
// registered. A platform's origins are its registration's (its issuer,
// its login address) and those its signed launches name
// (launch_presentation's return_url, tool_platform's url, a deep
// linking request's return address: Canvas's school domain is not its
// issuer's), never a request's unsigned Origin or Referer; at most
// maxSigned of the latter a platform, the newest kept, so the header
// does not grow with launches. The signed ones are kept in memory: after
// a restart a platform's next launch names them again.
const maxSigned = 8

type frames struct {
	mu         sync.Mutex
	registered map[string][]string    // a platform's (by issuer) registration's origins
	signed     map[string][]string    // the origins a platform's launches named, the newest last
	classes    map[int64]string       // a class's platform (issuer, "" for none), as looked up
	each       map[string]string      // a platform's frame-ancestors, worked out when its origins change
	all        atomic.Pointer[string] // every platform's, for a page of no class (nil: none)
}

// origin is the origin of an address, "" for one that is not http(s).
func origin(a string) string {
	u, err := url.Parse(a)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// allow adds the origins of addrs to the platform issuer's: its
// registration's, or (signed) those a launch of it named.
func (f *frames) allow(issuer string, signed bool, addrs ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.each == nil {
		f.registered, f.signed, f.classes, f.each = map[string][]string{}, map[string][]string{}, map[int64]string{}, map[string]string{}
	}
	reg, named := f.registered[issuer], f.signed[issuer]
	for _, a := range addrs {
		switch o := origin(a); {
		case o == "" || slices.Contains(reg, o):
		case !signed:
			reg = append(reg, o)
			named = slices.DeleteFunc(named, func(n string) bool { return n == o })
		default:
			named = append(slices.DeleteFunc(named, func(n string) bool { return n == o }), o)
			if len(named) > maxSigned {
				named = named[len(named)-maxSigned:]
			}
		}
	}
	f.registered[issuer], f.signed[issuer] = reg, named
	f.each[issuer] = "'self' " + strings.Join(append(slices.Clone(reg), named...), " ")
	var every []string
	for i := range f.each {
		every = append(every, f.registered[i]...)
		every = append(every, f.signed[i]...)
	}
	slices.Sort(every)
	all := "'self' " + strings.Join(slices.Compact(every), " ")
	f.all.Store(&all)
}

// linked says the class's pages are the platform issuer's.
func (f *frames) linked(classID int64, issuer string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.classes == nil {
		f.classes = map[int64]string{}
	}
	f.classes[classID] = issuer
}

// of is the platform issuer's frame-ancestors: 'none' for a platform
// not registered.
func (f *frames) of(issuer string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if fa, ok := f.each[issuer]; ok && issuer != "" {
		return fa
	}
	return "'none'"
}

// Launched keeps the origins a platform's checked launch names, signed
// by it, among those that may frame its classes' pages.
func (l *Platforms) Launched(p lti.Platform, c lti.Claims) {
	l.frames.allow(p.Issuer, true, c.Presentation.ReturnURL, c.ToolPlatform.URL, c.DeepLinking.ReturnURL)
}

// FrameAncestors is the CSP's frame-ancestors of a page of no class:
// none until pigclass is registered with a platform, then its own pages
// and every platform's. Every answer carries it (a class's page, the
// class's own: ClassFrames): it is worked out when the origins change,
// not on each request.
func (l *Platforms) FrameAncestors() string {
	if f := l.frames.all.Load(); f != nil {
		return *f
	}
	return "'none'"
}

// PlatformFrames is the frame-ancestors of a page that answers the
// platform's launch: its own pages and the platform's.
func (l *Platforms) PlatformFrames(p lti.Platform) string { return l.frames.of(p.Issuer) }

// ClassFrames is the frame-ancestors of a page of the class: the
// platform's whose link opened it, 'none' for a class no platform
// opened. The class's platform is looked up once.
func (l *Platforms) ClassFrames(ctx context.Context, classID int64) (string, error) {
	l.frames.mu.Lock()
	issuer, known := l.frames.classes[classID]
	l.frames.mu.Unlock()
	if !known {
		link, err := l.st.ClassLink(ctx, classID)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return "'none'", err
		default:
			issuer = link.Issuer
		}
		l.frames.linked(classID, issuer)
	}
	return l.frames.of(issuer), nil
}
