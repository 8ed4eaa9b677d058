package web

import (
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Compiled once; read-only. RE2 has no backreferences, so each element
// whose content is dropped gets its own expression.
var (
	reComment  = regexp.MustCompile(`(?s)<!--.*?-->`)
	reDoctype  = regexp.MustCompile(`(?s)<![^>]*>|<\?[^>]*\?>`)
	reDropped  = dropRegexps("script", "style", "noscript", "template", "svg", "math", "iframe", "object", "canvas", "nav", "footer", "select", "button", "head")
	reTitle    = regexp.MustCompile(`(?s)<title\b[^>]*>(.*?)</title\s*>`)
	reMain     = regexp.MustCompile(`(?s)<main\b[^>]*>(.*)</main\s*>`)
	reArticle  = regexp.MustCompile(`(?s)<article\b[^>]*>(.*)</article\s*>`)
	reBody     = regexp.MustCompile(`(?s)<body\b[^>]*>(.*?)(?:</body\s*>|$)`)
	rePre      = regexp.MustCompile(`(?s)<pre\b[^>]*>(.*?)</pre\s*>`)
	reSpace    = regexp.MustCompile(`[ \t\r\n\f\v]+`)
	reTagName  = regexp.MustCompile(`</?[a-zA-Z][a-zA-Z0-9]*`)
	reBr       = regexp.MustCompile(`<br\b[^>]*>`)
	reHr       = regexp.MustCompile(`<hr\b[^>]*>`)
	reHeading  = regexp.MustCompile(`(?s)<h([1-6])\b[^>]*>(.*?)</h[1-6]\s*>`)
	reLink     = regexp.MustCompile(`(?s)<a\b([^>]*)>(.*?)</a\s*>`)
	reHref     = regexp.MustCompile(`(?is)\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))`)
	reImg      = regexp.MustCompile(`(?s)<img\b([^>]*)>`)
	reAlt      = regexp.MustCompile(`(?is)\balt\s*=\s*(?:"([^"]*)"|'([^']*)')`)
	reLi       = regexp.MustCompile(`<li\b[^>]*>`)
	reCell     = regexp.MustCompile(`<t[dh]\b[^>]*>`)
	reRow      = regexp.MustCompile(`<tr\b[^>]*>`)
	reCode     = regexp.MustCompile(`(?s)<code\b[^>]*>(.*?)</code\s*>`)
	reQuote    = regexp.MustCompile(`(?s)<blockquote\b[^>]*>(.*?)</blockquote\s*>`)
	reBlock    = regexp.MustCompile(`</?(?:p|div|section|article|main|header|aside|figure|figcaption|table|thead|tbody|tfoot|ul|ol|dl|dt|dd|form|fieldset|address|details|summary|caption|center|body|html)\b[^>]*>`)
	reTag      = regexp.MustCompile(`(?s)</?[a-zA-Z][^>]*>`)
	reLineTrim = regexp.MustCompile(`(?m)[ \t]+$|^[ \t]+`)
	reBlank    = regexp.MustCompile(`\n{3,}`)
	rePlace    = regexp.MustCompile("\x00(\\d+)\x00")
)

func dropRegexps(tags ...string) []*regexp.Regexp {
	out := make([]*regexp.Regexp, 0, len(tags))
	for _, t := range tags {
		out = append(out, regexp.MustCompile(`(?s)<`+t+`\b[^>]*>.*?</`+t+`\s*>`))
	}
	return out
}

// htmlToText converts an HTML document into readable Markdown-ish text:
// headings become #, list items -, links [text](absolute URL), <pre>
// blocks fenced code; scripts, styles, navigation and footers are dropped.
// base resolves relative links. It also returns the page title.
func htmlToText(doc, base string) (string, string) {
	// NUL marks placeholders below; it has no place in HTML text.
	doc = strings.ReplaceAll(doc, "\x00", "")
	baseURL, _ := url.Parse(base)

	// Lower-case tag names once, so the passes below can be case-sensitive:
	// a literal prefix such as "<script" lets the regexp engine skip ahead
	// with a fast substring search; (?i) would defeat that.
	doc = reTagName.ReplaceAllStringFunc(doc, strings.ToLower)
	doc = reComment.ReplaceAllString(doc, "")
	title := ""
	if m := reTitle.FindStringSubmatch(doc); m != nil {
		title = strings.TrimSpace(reSpace.ReplaceAllString(html.UnescapeString(reTag.ReplaceAllString(m[1], "")), " "))
	}
	doc = reDoctype.ReplaceAllString(doc, "")
	for _, re := range reDropped {
		doc = re.ReplaceAllString(doc, " ")
	}
	// Prefer the main content when the page marks it.
	if m := reMain.FindStringSubmatch(doc); m != nil && strings.TrimSpace(m[1]) != "" {
		doc = m[1]
	} else if m := reArticle.FindStringSubmatch(doc); m != nil && strings.TrimSpace(m[1]) != "" {
		doc = m[1]
	} else if m := reBody.FindStringSubmatch(doc); m != nil {
		doc = m[1]
	}

	// Set <pre> blocks aside so whitespace folding leaves them alone.
	var pres []string
	doc = rePre.ReplaceAllStringFunc(doc, func(block string) string {
		inner := rePre.FindStringSubmatch(block)[1]
		inner = html.UnescapeString(reTag.ReplaceAllString(reBr.ReplaceAllString(inner, "\n"), ""))
		inner = strings.Trim(strings.ReplaceAll(inner, "\r\n", "\n"), "\n")
		pres = append(pres, "```\n"+inner+"\n```")
		return "\n\n\x00" + strconv.Itoa(len(pres)-1) + "\x00\n\n"
	})

	doc = strings.Join(strings.Fields(doc), " ")
	doc = reBr.ReplaceAllString(doc, "\n")
	doc = reHr.ReplaceAllString(doc, "\n\n---\n\n")
	doc = reHeading.ReplaceAllStringFunc(doc, func(h string) string {
		m := reHeading.FindStringSubmatch(h)
		n, _ := strconv.Atoi(m[1])
		text := strings.TrimSpace(reTag.ReplaceAllString(m[2], ""))
		if text == "" {
			return "\n\n"
		}
		return "\n\n" + strings.Repeat("#", n) + " " + text + "\n\n"
	})
	doc = reImg.ReplaceAllStringFunc(doc, func(tag string) string {
		m := reAlt.FindStringSubmatch(tag)
		if m == nil {
			return ""
		}
		alt := strings.TrimSpace(m[1] + m[2])
		if alt == "" {
			return ""
		}
		return "[image: " + alt + "]"
	})
	doc = reLink.ReplaceAllStringFunc(doc, func(a string) string {
		m := reLink.FindStringSubmatch(a)
		text := strings.TrimSpace(reTag.ReplaceAllString(m[2], ""))
		h := reHref.FindStringSubmatch(m[1])
		if h == nil {
			return text
		}
		href := strings.TrimSpace(html.UnescapeString(h[1] + h[2] + h[3]))
		if href == "" || strings.HasPrefix(href, "#") || strings.HasPrefix(strings.ToLower(href), "javascript:") {
			return text
		}
		if baseURL != nil {
			if ref, err := url.Parse(href); err == nil {
				href = baseURL.ResolveReference(ref).String()
			}
		}
		if text == "" {
			return ""
		}
		if html.UnescapeString(text) == href {
			return href
		}
		return "[" + text + "](" + href + ")"
	})
	doc = reCode.ReplaceAllString(doc, "`$1`")
	doc = reQuote.ReplaceAllStringFunc(doc, func(q string) string {
		inner := reQuote.FindStringSubmatch(q)[1]
		inner = strings.TrimSpace(reTag.ReplaceAllString(reBlock.ReplaceAllString(inner, "\n"), ""))
		inner = reBlank.ReplaceAllString(reLineTrim.ReplaceAllString(inner, ""), "\n\n")
		return "\n\n> " + strings.ReplaceAll(inner, "\n", "\n> ") + "\n\n"
	})
	doc = reLi.ReplaceAllString(doc, "\n- ")
	doc = reRow.ReplaceAllString(doc, "\n")
	doc = reCell.ReplaceAllString(doc, " | ")
	doc = reBlock.ReplaceAllString(doc, "\n\n")
	doc = reTag.ReplaceAllString(doc, "")
	doc = html.UnescapeString(doc)
	doc = strings.ReplaceAll(doc, "\u00a0", " ")
	doc = reLineTrim.ReplaceAllString(doc, "")
	doc = reBlank.ReplaceAllString(doc, "\n\n")
	doc = strings.TrimSpace(doc)
	if len(pres) > 0 {
		doc = rePlace.ReplaceAllStringFunc(doc, func(p string) string {
			i, err := strconv.Atoi(strings.Trim(p, "\x00"))
			if err != nil || i < 0 || i >= len(pres) {
				return ""
			}
			return pres[i]
		})
	}
	return doc, title
}
