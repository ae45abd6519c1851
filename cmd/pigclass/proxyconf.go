package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/netip"
	"net/url"
	"sort"
	"strings"

	"pigclass/server"
)

// proxyInstance is one pigclass of a district: its code prefix and where
// it listens.
type proxyInstance struct {
	prefix, addr string
	from         string // the address the proxy connects to it from (its --trusted-proxy)
}

// instancesFlag reads --instance PREFIX=HOST:PORT, once per instance.
type instancesFlag []proxyInstance

func (f *instancesFlag) String() string { return "" }

func (f *instancesFlag) Set(v string) error {
	prefix, addr, ok := strings.Cut(v, "=")
	prefix = strings.ToUpper(strings.TrimSpace(prefix))
	if !ok || prefix == "" {
		return fmt.Errorf("%q: write PREFIX=HOST:PORT, e.g. A=10.0.0.11:8080", v)
	}
	if err := server.CheckCodePrefix(prefix); err != nil {
		return err
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return fmt.Errorf("%q: the instance's address %q: write HOST:PORT", v, addr)
	}
	for _, i := range *f {
		if strings.HasPrefix(i.prefix, prefix) || strings.HasPrefix(prefix, i.prefix) {
			return fmt.Errorf("%q: the prefix %s overlaps %s's", v, prefix, i.prefix)
		}
	}
	*f = append(*f, proxyInstance{prefix: prefix, addr: addr})
	return nil
}

func runProxyconf(e env, args []string) error {
	fs := newFlags(e, "proxyconf", "[--format nginx|haproxy] [--shared-db] --listen ADDR --public-url URL --instance PREFIX=HOST:PORT [--instance ...]")
	format := fs.String("format", "nginx", "the proxy: nginx (run it with nginx -c FILE -p DIR) or haproxy (haproxy -f FILE)")
	listen := fs.String("listen", "127.0.0.1:8000", "the address the proxy listens on")
	public := fs.String("public-url", "", "the address browsers use to reach the proxy, e.g. http://pigclass.district.example (each instance is started with the same --public-url)")
	var instances instancesFlag
	fs.Var(&instances, "instance", "one instance: its code prefix and address, PREFIX=HOST:PORT (repeat for each)")
	shared := fs.Bool("shared-db", false, "the instances share one Postgres database (serve --db postgres://...): every instance may serve every class, the class's code choosing the one asked first (nginx only)")
	fromAddr := fs.String("proxy-address", "", "the address the proxy connects to the instances from, which each instance must trust (--trusted-proxy); default: 127.0.0.1 for instances on this machine, else the address this machine reaches them from")
	if err := parse(fs, args); err != nil {
		return err
	}
	if len(instances) == 0 {
		return usagef("proxyconf: give at least one --instance PREFIX=HOST:PORT")
	}
	if _, _, err := net.SplitHostPort(*listen); err != nil {
		return usagef("proxyconf: --listen %q: write HOST:PORT", *listen)
	}
	if u, err := url.Parse(*public); err != nil || u.Scheme == "" || u.Host == "" {
		return usagef("proxyconf: --public-url %q: write it as http://HOST[:PORT]", *public)
	}
	for n, i := range instances {
		from, err := proxySource(i.addr, *fromAddr)
		if err != nil {
			return err
		}
		instances[n].from = from
	}
	switch {
	case *shared && *format != "nginx":
		return usagef("proxyconf: --shared-db writes nginx's configuration: leave --format out, or give --format nginx")
	case *shared:
		return writeSharedNginx(e.stdout, *listen, *public, instances)
	}
	switch *format {
	case "nginx":
		return writeNginx(e.stdout, *listen, *public, instances)
	case "haproxy":
		return writeHAProxy(e.stdout, *listen, *public, instances)
	}
	return usagef("proxyconf: --format %q: use nginx or haproxy", *format)
}

// writeHAProxy writes the same district for HAProxy (2.2 or later): it runs
// as it is with `haproxy -f FILE`. Active health checks on /healthz take a
// failed instance out of the spread within a second or two; a request that
// cannot connect is sent to another instance.
func writeHAProxy(w io.Writer, listen, public string, instances instancesFlag) error {
	sort.Slice(instances, func(i, j int) bool { return instances[i].prefix < instances[j].prefix })
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	p("# pigclass for a district: one HAProxy in front of %d pigclass instances.", len(instances))
	p("# Made by: pigclass proxyconf --format haproxy --listen %s --public-url %s%s", listen, public, instanceArgs(instances))
	p("# Run it with: haproxy -f pigclass-haproxy.conf   (-db to stay in the foreground)")
	districtComment(&b, listen, public, instances, "/healthz is checked every second and an instance", "that fails it three times in a row leaves the spread until it answers twice.")
	p("")
	p("global")
	p("    maxconn 4096")
	p("")
	p("defaults")
	p("    mode http")
	p("    timeout connect 2s")
	p("    # A page's event stream (/c|t|p/CODE/events) stays open, and says")
	p("    # something every 5 s: well within these timeouts. HAProxy passes")
	p("    # each event on as it comes.")
	p("    timeout client 60s")
	p("    timeout server 60s")
	p("    timeout http-keep-alive 10s")
	p("    # The client's address for the instances (they trust this proxy's);")
	p("    # Host passes through as the browser sent it.")
	p("    option forwardfor")
	p("    retries 2")
	p("    option redispatch")
	p("")
	p("frontend pigclass")
	p("    bind %s", listen)
	p("    http-request set-header X-Forwarded-Proto https if { ssl_fc }")
	p("    http-request set-header X-Forwarded-Proto http unless { ssl_fc }")
	for _, i := range instances {
		p("    acl class_%s path_reg -i ^/(c|t|p|join)/%s", i.prefix, i.prefix)
	}
	for _, i := range instances {
		p("    use_backend pigclass_%s if class_%s", i.prefix, i.prefix)
	}
	p("    default_backend pigclass_all")
	p("")
	p("# All instances: the addresses that hold no class code.")
	p("backend pigclass_all")
	p("    balance roundrobin")
	p("    option httpchk")
	// Every instance answers for the public address's host.
	u, _ := url.Parse(public)
	p("    http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host %s", u.Host)
	p("    http-check expect status 200")
	for _, i := range instances {
		// Three failed checks in a row, not one: a busy second (a check
		// answered after its 1 s) does not take a working instance out
		// of the spread. A stopped one is out within 3 s, and meanwhile
		// a request that cannot connect to it is sent to another
		// (retries, redispatch).
		p("    server %s %s check inter 1s fall 3 rise 2", i.prefix, i.addr)
	}
	for _, i := range instances {
		p("")
		p("# The classes whose codes start with %s.", i.prefix)
		p("backend pigclass_%s", i.prefix)
		p("    server %s %s", i.prefix, i.addr)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeNginx writes a complete nginx configuration for a district: it runs
// as it is with `nginx -c FILE -p DIR`, every path relative to DIR.
func writeNginx(w io.Writer, listen, public string, instances instancesFlag) error {
	sort.Slice(instances, func(i, j int) bool { return instances[i].prefix < instances[j].prefix })
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	p("# pigclass for a district: one nginx in front of %d pigclass instances.", len(instances))
	p("# Made by: pigclass proxyconf --listen %s --public-url %s%s", listen, public, instanceArgs(instances))
	p("# Run it with: nginx -c $PWD/pigclass-nginx.conf -p $PWD   (the paths below are under -p)")
	districtComment(&b, listen, public, instances, "an instance that fails is taken out of the spread", "for 10 s at a time (passive health checks; /healthz says why).")
	nginxBody(&b, listen, instances, false)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSharedNginx writes nginx's configuration for a district whose
// instances share one Postgres database: a class's code still chooses the
// instance asked first, and every other instance backs it up. An instance
// that does not serve the class (another holds its lease) answers 503,
// and one that is down does not answer: nginx then asks the next, and the
// first to find the class's lease expired takes the class over.
func writeSharedNginx(w io.Writer, listen, public string, instances instancesFlag) error {
	sort.Slice(instances, func(i, j int) bool { return instances[i].prefix < instances[j].prefix })
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	p("# pigclass for a district on one Postgres: one nginx in front of %d pigclass instances.", len(instances))
	p("# Made by: pigclass proxyconf --shared-db --listen %s --public-url %s%s", listen, public, instanceArgs(instances))
	p("# Run it with: nginx -c $PWD/pigclass-nginx.conf -p $PWD   (the paths below are under -p)")
	p("#")
	p("# Every instance may serve every class, one at a time: the one holding the")
	p("# class's lease in the database. A class's addresses (/c/, /t/, /p/, /join/")
	p("# and its code) go first to the instance whose prefix its code starts with")
	p("# (the one that started it), then to the others. An instance asked for a")
	p("# class another one serves answers 503, and nginx asks the next; when the")
	p("# serving instance stops, the next one asked takes the class over once its")
	p("# lease has expired (6 s at most) and the class goes on. A form (a POST)")
	p("# is passed on as well when an instance answers 503 or cannot be reached:")
	p("# pigclass answers 503 only for what it did not do (a class another")
	p("# instance serves, a write the database refused), and a form whose")
	p("# instance died before answering reaches instances that cannot take the")
	p("# class over while that one's lease lasts: they answer 503 too, and the")
	p("# form waits for the student's next tap. A form that timed out is not")
	p("# passed on (its instance may have done it). Everything else is spread")
	p("# over all instances.")
	p("# Each instance runs with the same --public-url, database and key file, and")
	p("# trusts this proxy (the database's address in PIGCLASS_DB keeps its")
	p("# password out of the process list):")
	for _, i := range instances {
		host, port, _ := net.SplitHostPort(i.addr)
		p("#   PIGCLASS_DB=postgres://pigclass@DBHOST/pigclass pigclass serve --addr %s --code-prefix %s --public-url %s --trusted-proxy %s --key district.key", net.JoinHostPort(host, port), i.prefix, public, i.from)
	}
	nginxBody(&b, listen, instances, true)
	_, err := io.WriteString(w, b.String())
	return err
}

// nginxBody writes the configuration after its comment; shared, every
// instance backs up each prefix's own.
func nginxBody(b *strings.Builder, listen string, instances instancesFlag, shared bool) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format+"\n", args...) }
	p("")
	p("worker_processes 1;")
	p("pid nginx.pid;")
	p("error_log error.log;")
	p("worker_rlimit_nofile 16384; # a school at once: a connection in, one out each")
	p("")
	p("events { worker_connections 8192; }")
	p("")
	p("http {")
	p("    access_log access.log;")
	p("    client_body_temp_path client_body_temp;")
	p("    proxy_temp_path proxy_temp;")
	p("    fastcgi_temp_path fastcgi_temp;")
	p("    uwsgi_temp_path uwsgi_temp;")
	p("    scgi_temp_path scgi_temp;")
	p("    client_max_body_size 1m;")
	p("")
	nginxUpstreams(p, instances, shared)
	p("")
	p("    # A class's addresses by the first characters of its code (any case).")
	p("    map $uri $pigclass {")
	for _, i := range instances {
		p("        ~*^/(c|t|p|join)/%s  pigclass_%s;", i.prefix, i.prefix)
	}
	p("        default              pigclass_all;")
	p("    }")
	p("")
	p("    server {")
	p("        listen %s;", listen)
	p("        # A page's event stream stays open and says something every 5 s:")
	p("        # each event passed on at once, not buffered.")
	p("        location ~ ^/(c|t|p)/[^/]+/events$ {")
	nginxProxy(p, "error timeout http_502 http_503")
	p("            proxy_buffering off;")
	p("            proxy_read_timeout 1h;")
	p("        }")
	p("        location / {")
	if shared {
		p("            # Forms go on to the next instance by their own rules (@form).")
		p("            error_page 418 = @form;")
		p("            if ($request_method = POST) { return 418; }")
	}
	nginxProxy(p, "error timeout http_502 http_503")
	p("        }")
	if shared {
		p("        location @form {")
		nginxProxy(p, "error http_503 non_idempotent")
		p("        }")
	}
	p("    }")
	p("}")
}

// nginxUpstreams writes the instances' upstreams: all of them, and each
// one's classes (with the others as its backups on a shared database).
func nginxUpstreams(p func(string, ...any), instances instancesFlag, shared bool) {
	p("    # All instances: the addresses that hold no class code.")
	p("    upstream pigclass_all {")
	for _, i := range instances {
		p("        server %s max_fails=1 fail_timeout=10s;", i.addr)
	}
	p("        keepalive 32;")
	p("    }")
	for _, i := range instances {
		p("")
		p("    # The classes whose codes start with %s.", i.prefix)
		p("    upstream pigclass_%s {", i.prefix)
		if !shared {
			p("        server %s;", i.addr)
		} else {
			// A backup's 503 (the class is another's) is no failure of
			// it: never taken out for that (max_fails=0).
			p("        server %s max_fails=1 fail_timeout=5s;", i.addr)
			for _, o := range instances {
				if o.addr != i.addr {
					p("        server %s backup max_fails=0;", o.addr)
				}
			}
		}
		p("        keepalive 16;")
		p("    }")
	}
}

// nginxProxy writes a location's passing on to the instances, to the next
// one on next (proxy_next_upstream).
func nginxProxy(p func(string, ...any), next string) {
	p("            proxy_pass http://$pigclass;")
	p("            proxy_http_version 1.1;")
	p("            proxy_set_header Connection \"\";")
	p("            proxy_set_header Host $http_host;")
	p("            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;")
	p("            proxy_set_header X-Forwarded-Proto $scheme;")
	p("            proxy_next_upstream %s;", next)
	p("            proxy_connect_timeout 2s;")
}

func instanceArgs(instances instancesFlag) string {
	var b strings.Builder
	for _, i := range instances {
		fmt.Fprintf(&b, " --instance %s=%s", i.prefix, i.addr)
	}
	return b.String()
}

// proxySource is the address the proxy connects to the instance at addr
// from: the one given (--proxy-address), else 127.0.0.1 (or ::1) for an
// instance on this machine's loopback, else the address this machine
// reaches addr from (the kernel's choice of route: no packet is sent).
// The instance trusts that address's X-Forwarded-For; with the wrong one
// every student behind the proxy would share one address and one limit.
func proxySource(addr, given string) (string, error) {
	if given != "" {
		if _, err := netip.ParseAddr(given); err != nil {
			return "", usagef("proxyconf: --proxy-address %q: write an IP address, e.g. 10.0.0.2", given)
		}
		return given, nil
	}
	host, _, _ := net.SplitHostPort(addr)
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsLoopback() || host == "localhost" {
		if ip.Is6() && !ip.Is4In6() {
			return "::1", nil
		}
		return "127.0.0.1", nil
	}
	conn, err := net.Dial("udp", addr) // a route, not a packet
	if err != nil {
		return "", usagef("proxyconf: --instance %s is not on this machine and no route to it is known here: give --proxy-address, the address the proxy connects to it from", addr)
	}
	defer conn.Close()
	return conn.LocalAddr().(*net.UDPAddr).AddrPort().Addr().Unmap().String(), nil
}

var _ flag.Value = (*instancesFlag)(nil)

// districtComment writes what both proxies' configurations say first: how
// addresses are routed, how a failed instance leaves the spread (two
// lines, the proxy's own), and how each instance is started.
func districtComment(b *strings.Builder, listen, public string, instances instancesFlag, failed1, failed2 string) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format+"\n", args...) }
	p("#")
	p("# Every address of a class (/c/, /t/, /p/, /join/ and its code) goes to the")
	p("# instance whose prefix its code starts with: each class lives on one")
	p("# instance. Everything else (the front page, starting a class, /join,")
	p("# /static/, /verify, practice matches) is spread over all instances, so")
	p("# new classes are too; %s", failed1)
	p("# %s", failed2)
	p("# Each instance runs with the same --public-url and trusts this proxy:")
	for _, i := range instances {
		host, port, _ := net.SplitHostPort(i.addr)
		p("#   pigclass serve --addr %s --code-prefix %s --public-url %s --trusted-proxy %s --db pigclass-%s.db", net.JoinHostPort(host, port), i.prefix, public, i.from, strings.ToLower(i.prefix))
	}
}
