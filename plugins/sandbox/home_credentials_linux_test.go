package sandbox_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// Issue 21 (attack a11): credentialFiles is a list of known names; with the home folder
// granted every other credential stays readable to every sandbox (and
// the network is on by default). Each entry below is a login, a session or
// a private key a common Linux desktop or developer tool keeps in
// plaintext or in a form decryptable without the person's password:
// Ubuntu's default Firefox (a snap: ~/snap/firefox/common/.mozilla) and
// Flatpak browsers (~/.var/app), Vivaldi's and Opera's profiles, Slack's
// and Discord's sessions, Telegram's session (the whole account), GitHub
// Copilot's and Gemini CLI's OAuth tokens, NSS's client-certificate keys,
// podman's registry logins, Terraform's token, s3cmd's and Databricks'
// keys, DigitalOcean's and fly.io's tokens, a kubeconfig under another
// name, Emacs' and msmtp's mail passwords, FileZilla's saved sites, and
// the shell history (export TOKEN=… typed once).
//
// Reproduction: grant ~; in shell_exec: cat ~/snap/firefox/common/.mozilla/firefox/*/cookies.sqlite
func TestHomeCredentialsOfCommonTools(t *testing.T) {
	requireLandlock(t)
	const secret = "A11SECRETa9f3"
	creds := []string{
		"snap/firefox/common/.mozilla/firefox/abcd.default/cookies.sqlite",
		"snap/chromium/common/chromium/Default/Cookies",
		".var/app/org.mozilla.firefox/.mozilla/firefox/abcd.default/logins.json",
		".var/app/com.google.Chrome/config/google-chrome/Default/Cookies",
		".config/vivaldi/Default/Cookies",
		".config/opera/Cookies",
		".config/Slack/Cookies",
		".config/discord/Local Storage/leveldb/000003.log",
		".local/share/TelegramDesktop/tdata/key_datas",
		".config/github-copilot/hosts.json",
		".config/github-copilot/apps.json",
		".gemini/oauth_creds.json",
		".pki/nssdb/key4.db",
		".config/containers/auth.json",
		".terraformrc",
		".s3cfg",
		".databrickscfg",
		".config/doctl/config.yaml",
		".fly/config.yml",
		".kube/prod.yaml",
		".authinfo",
		".msmtprc",
		".config/filezilla/sitemanager.xml",
		".bash_history",
	}
	files := map[string]string{}
	for _, c := range creds {
		files[c] = "token=" + secret + "\n"
	}
	home := homeWith(t, files)
	for who, p := range homeGrantedPolicies(t, home) {
		for _, rel := range creds {
			t.Run(who+" ~/"+rel, func(t *testing.T) {
				if out, _ := run(t, p, "cat '"+filepath.Join(home, rel)+"'"); strings.Contains(out, secret) {
					t.Errorf("a sandboxed %s with the home folder granted read ~/%s: want credentials unreadable to every sandbox", who, rel)
				}
			})
		}
	}
}

// TestHomeCredentialsOfPackageAndCloudTools: more tools that keep a login
// in plaintext under the home folder: yarn 1's and pip's registry tokens,
// Poetry's repository passwords, Pulumi's, ngrok's, Hetzner's, Oracle
// Cloud's, Google's boto, Cloudflare's, Netlify's, Vercel's, Supabase's and
// Stripe's tokens, configstore's (Firebase and other npm CLIs), Helm's
// repository passwords, Gitea's CLI, the sops/age private key, KWallet's
// store, git's credential-cache sockets and atuin's shell-history database.
func TestHomeCredentialsOfPackageAndCloudTools(t *testing.T) {
	requireLandlock(t)
	const secret = "F12SECRETb7e1"
	creds := []string{
		".yarnrc",
		".config/pip/pip.conf",
		".pip/pip.conf",
		".config/pypoetry/auth.toml",
		".pulumi/credentials.json",
		".config/sops/age/keys.txt",
		".local/share/kwalletd/kdewallet.kwl",
		".config/ngrok/ngrok.yml",
		".ngrok2/ngrok.yml",
		".config/hcloud/cli.toml",
		".oci/config",
		".boto",
		".config/.wrangler/config/default.toml",
		".config/netlify/config.json",
		".local/share/com.vercel.cli/auth.json",
		".supabase/access-token",
		".config/stripe/config.toml",
		".config/configstore/firebase-tools.json",
		".config/helm/repositories.yaml",
		".config/tea/config.yml",
		".cache/git/credential/socket-token",
		".local/share/atuin/history.db",
	}
	files := map[string]string{}
	for _, c := range creds {
		files[c] = "token=" + secret + "\n"
	}
	home := homeWith(t, files)
	for who, p := range homeGrantedPolicies(t, home) {
		for _, rel := range creds {
			t.Run(who+" ~/"+rel, func(t *testing.T) {
				if out, _ := run(t, p, "cat '"+filepath.Join(home, rel)+"'"); strings.Contains(out, secret) {
					t.Errorf("a sandboxed %s with the home folder granted read ~/%s: want credentials unreadable to every sandbox", who, rel)
				}
			})
		}
	}
}

// homeGrantedPolicies are the three sandboxes the home folder rule promises to
// hold in, with the home folder granted (the usual grant).
func homeGrantedPolicies(t *testing.T, home string) map[string]sandbox.Policy {
	t.Helper()
	t.Setenv("HOME", home)
	f := newFixture(t)
	return map[string]sandbox.Policy{
		"shell command":              sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Temp: f.temp, Network: true}),
		"MCP server":                 sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Program: "/bin/sh", Temp: f.temp, Network: true}),
		"plugin with files and exec": sandbox.ForPlugin(sandbox.PluginOptions{Roots: []string{home}, Protected: f.protected(), Files: true, Exec: true}),
	}
}
