package main

import (
	"net"
	"net/netip"
	"slices"
	"strings"
)

// netInterface is what reachable needs of one of this computer's network
// interfaces (net.Interface and its addresses), so that the choice can be
// tested on made-up machines.
type netInterface struct {
	name  string
	up    bool
	loop  bool
	addrs []netip.Addr
}

// localInterfaces reads this computer's interfaces.
func localInterfaces() []netInterface {
	ifs, err := net.Interfaces()
	if err != nil {
		return nil
	}
	var out []netInterface
	for _, i := range ifs {
		n := netInterface{name: i.Name, up: i.Flags&net.FlagUp != 0 && i.Flags&net.FlagRunning != 0, loop: i.Flags&net.FlagLoopback != 0}
		addrs, _ := i.Addrs()
		for _, a := range addrs {
			if p, err := netip.ParsePrefix(a.String()); err == nil {
				n.addrs = append(n.addrs, p.Addr().Unmap())
			}
		}
		out = append(out, n)
	}
	return out
}

// bridgePrefixes (in lower case) start the names of the interfaces that containers and
// virtual machines make on this computer: a student's device on the
// school's network never reaches their addresses.
var bridgePrefixes = []string{"docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "cni", "flannel", "cali", "podman", "lxc", "lxd", "tun", "utun", "zt", "vethernet", "ham", "anpi", "awdl", "llw", "bridge"}

// reachable is the addresses other devices on the school's network may
// reach this computer by, best first: IPv4 addresses of interfaces that
// are up, not loopback, not link-local (169.254.x.x, which no network
// hands out), not a container's or a virtual machine's bridge; private
// ranges (10/8, 172.16/12, 192.168/16: a school's network) before others.
func reachable(ifs []netInterface) []netip.Addr {
	var private, other []netip.Addr
	for _, i := range ifs {
		if !i.up || i.loop || isBridge(i.name) {
			continue
		}
		for _, a := range i.addrs {
			switch {
			case !a.Is4(), a.IsLoopback(), a.IsLinkLocalUnicast(), a.IsUnspecified(), a.IsMulticast():
			case a.IsPrivate():
				private = append(private, a)
			default:
				other = append(other, a)
			}
		}
	}
	return slices.Concat(private, other)
}

func isBridge(name string) bool {
	name = strings.ToLower(name)
	return slices.ContainsFunc(bridgePrefixes, func(p string) bool { return strings.HasPrefix(name, p) })
}
