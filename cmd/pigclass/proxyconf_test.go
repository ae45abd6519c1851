package main

import (
	"strings"
	"testing"
)

// TestProxyconfTrustsTheProxysOwnAddress: each instance is told to trust
// the address the proxy connects to it from: 127.0.0.1 on this machine,
// the proxy's address on the network for an instance on another machine
// (with 127.0.0.1 there, it would believe no X-Forwarded-For, and every
// student would share the proxy's address and one limit).
func TestProxyconfTrustsTheProxysOwnAddress(t *testing.T) {
	for _, format := range []string{"nginx", "haproxy"} {
		out, _, err := runCmd(t, "proxyconf", "--format", format, "--listen", "0.0.0.0:80", "--public-url", "http://pigclass.district.example",
			"--instance", "A=10.0.0.11:8080", "--instance", "J=10.0.0.12:8080", "--proxy-address", "10.0.0.2")
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"--addr 10.0.0.11:8080 --code-prefix A --public-url http://pigclass.district.example --trusted-proxy 10.0.0.2 ",
			"--addr 10.0.0.12:8080 --code-prefix J --public-url http://pigclass.district.example --trusted-proxy 10.0.0.2 "} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in\n%s", format, want, out)
			}
		}
	}
	out, _, err := runCmd(t, "proxyconf", "--listen", "0.0.0.0:80", "--public-url", "http://pigclass.district.example", "--instance", "A=127.0.0.1:8081", "--instance", "J=[::1]:8082")
	if err != nil || !strings.Contains(out, "--addr 127.0.0.1:8081 --code-prefix A --public-url http://pigclass.district.example --trusted-proxy 127.0.0.1 ") ||
		!strings.Contains(out, "--addr [::1]:8082 --code-prefix J --public-url http://pigclass.district.example --trusted-proxy ::1 ") {
		t.Errorf("instances on this machine: %v\n%s", err, out)
	}
	if _, _, err := runCmd(t, "proxyconf", "--public-url", "http://x.example", "--instance", "A=10.0.0.11:8080", "--proxy-address", "the proxy"); err == nil || !strings.Contains(err.Error(), "write an IP address") {
		t.Errorf("a --proxy-address that is not one: %v", err)
	}
}
