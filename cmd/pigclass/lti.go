package main

import (
	"flag"
	"fmt"
	"net/url"
	"strings"

	"pigclass/server"
	"pigclass/server/lti"
	"pigclass/server/platforms"
	"pigclass/server/store"
	"pigclass/templates/paths"
)

// runLTI prints the addresses a learning platform's administrator needs
// to add pigclass as an LTI 1.3 tool and the platforms registered; with
// "add" it registers a platform by hand, with "rotate" it makes pigclass
// a new signing key.
func runLTI(e env, args []string) error {
	sub := ""
	if len(args) > 0 && (args[0] == "add" || args[0] == "rotate") {
		sub, args = args[0], args[1:]
	}
	fs := newFlags(e, "lti", "[add | rotate] --db FILE --public-url URL [add's flags]")
	db := fs.String("db", envOr(e, "PIGCLASS_DB", "./pigclass.db"), "the server's database (env PIGCLASS_DB); the server may be running on it")
	keyFile := fs.String("key", e.getenv("PIGCLASS_KEY"), "the server's key file (env PIGCLASS_KEY; default: the database file's name with .key); with Postgres, the district's")
	public := fs.String("public-url", e.getenv("PIGCLASS_PUBLIC_URL"), "the address the platform reaches pigclass at, as serve's --public-url (env PIGCLASS_PUBLIC_URL), https:// for a platform that shows pigclass in a frame")
	var p lti.Platform
	var deployments string
	fs.StringVar(&p.Issuer, "issuer", "", "add: the platform's issuer (the iss of its launches)")
	fs.StringVar(&p.ClientID, "client-id", "", "add: pigclass's client id at the platform")
	fs.StringVar(&deployments, "deployment", "", "add: the deployment ids of pigclass at the platform, separated by commas")
	fs.StringVar(&p.LoginURL, "login-url", "", "add: the platform's OIDC authorization endpoint")
	fs.StringVar(&p.TokenURL, "token-url", "", "add: the platform's OAuth 2 token endpoint")
	fs.StringVar(&p.KeysURL, "keys-url", "", "add: the address of the platform's public keys (JWKS)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *keyFile == "" && store.IsPostgres(*db) {
		return usagef("lti: --key: with a Postgres database, name the district's key file, for example --key /etc/pigclass/district.key")
	}
	if *keyFile == "" {
		*keyFile = *db + ".key"
	}
	st, err := store.Open(e.ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	key, err := store.LoadKey(*keyFile)
	if err != nil {
		return err
	}
	switch sub {
	case "add":
		p.Deployments = splitList(deployments)
		if err := checkPlatform(fs, p); err != nil {
			return err
		}
		if _, err := st.SavePlatform(e.ctx, p); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "registered %s (client id %s, deployments %s)\n", p.Issuer, p.ClientID, strings.Join(p.Deployments, ", "))
	case "rotate":
		if err := platforms.Rotate(e.ctx, st, key.Bytes); err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, "pigclass signs with a new key from now on; the one before it is still published at /lti/jwks until the next rotation, and any older one is not")
		return nil
	}
	return printLTI(e, st, *public, server.LTIRegisterKey(key.Bytes))
}

// checkPlatform says which of add's flags is missing or not an address.
func checkPlatform(fs *flag.FlagSet, p lti.Platform) error {
	for _, f := range []struct{ name, v string }{{"issuer", p.Issuer}, {"login-url", p.LoginURL}, {"token-url", p.TokenURL}, {"keys-url", p.KeysURL}} {
		if u, err := url.Parse(f.v); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return badFlags(fs, fmt.Sprintf("lti add: --%s: give the platform's address, for example --%s https://lms.example.org/...", f.name, f.name))
		}
	}
	if p.ClientID == "" || len(p.Deployments) == 0 {
		return badFlags(fs, "lti add: --client-id and --deployment: give pigclass's client id and deployment ids at the platform, as its tool configuration page shows them")
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// printLTI prints pigclass's addresses for a platform and the platforms
// registered.
func printLTI(e env, st *store.Store, public, registerKey string) error {
	if u, err := url.Parse(public); err != nil || u.Host == "" {
		return usagef("lti: --public-url: give the address the platform reaches pigclass at, for example --public-url https://pigclass.school.example")
	}
	tool := lti.ToolAt(public)
	w := e.stdout
	fmt.Fprintf(w, "pigclass for a learning platform (LTI 1.3) at %s\n\n", public)
	fmt.Fprintf(w, "  registration address (LTI Dynamic Registration; give it to the platform alone):\n    %s%s\n", strings.TrimRight(public, "/"), paths.LTIRegister.WithKey(registerKey))
	fmt.Fprintf(w, "  login initiation (OIDC):   %s\n", tool.LoginURL)
	fmt.Fprintf(w, "  launch (redirect URI):     %s\n", tool.LaunchURL)
	fmt.Fprintf(w, "  public keys (JWKS):        %s\n", tool.KeysURL)
	platforms, err := st.Platforms(e.ctx, "")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nplatforms registered: %d\n", len(platforms))
	for _, p := range platforms {
		fmt.Fprintf(w, "  %s, client id %s, deployments %s\n", p.Issuer, p.ClientID, strings.Join(p.Deployments, ", "))
	}
	return nil
}
