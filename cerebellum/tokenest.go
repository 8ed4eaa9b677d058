package cerebellum

import (
	"math"
	"unicode/utf8"
)

// EstimateTokens counts tokens cheaply and conservatively for the index
// budget, without loading a tokenizer (a real BPE table costs about 0.2 s
// and 30 MB at start-up). Text is split the way BPE pre-tokenisers split
// it: a run of ASCII letters that reads like English (every letter pair is
// common in English) counts one token per 6 letters; any other letter run,
// such as an abbreviation or a random string, one per 1.6 letters; digits
// one per 3; every other symbol and every non-ASCII character one each;
// whitespace nothing. The sum gets a 15% margin and is never below one
// token per 3.5 bytes.
//
// Against o200k_base it over-counts ordinary descriptions by about 1.3-1.4x,
// symbol-dense, random, code-like and CJK text by 1.1-1.5x, and no tested
// line by less than its real count (the index tests check this with the
// real tokenizer at 10, 1,000 and 10,000 capabilities and on dense text).
func EstimateTokens(s string) int {
	var t TokenTally
	t.Add(s)
	return t.Tokens()
}

// TokenTally sums EstimateTokens over a text given in pieces, so a text
// that grows at its end is counted once, not again in whole at every
// piece. Cut at whitespace, the pieces count exactly as the whole text
// does (whitespace counts nothing and ends every run); a cut inside a
// word counts it as two.
type TokenTally struct {
	raw   float64
	bytes int
}

// Add counts s after what was added before.
func (t *TokenTally) Add(s string) {
	t.raw += rawTokens(s)
	t.bytes += len(s)
}

// Tokens is the estimate of everything added.
func (t TokenTally) Tokens() int {
	return max(int(math.Ceil(t.raw*1.15)), (2*t.bytes+6)/7)
}

// rawTokens is EstimateTokens' count of s before its margin and floor.
func rawTokens(s string) float64 {
	total := 0.0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isASCIILetter(c):
			j := i
			for j < len(s) && isASCIILetter(s[j]) {
				j++
			}
			n := float64(j - i)
			switch {
			case j-i <= 2:
				total++
			case englishLike(s[i:j]):
				total += math.Ceil(n / 6)
			default:
				total += math.Ceil(n / 1.6)
			}
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			total += math.Ceil(float64(j-i) / 3)
			i = j
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			i++
		case c < utf8.RuneSelf:
			total++
			i++
		default:
			_, size := utf8.DecodeRuneInString(s[i:])
			total++
			i += size
		}
	}
	return total
}

// estimateJSONTokens estimates tool schemas (compact JSON) at one token per
// 3.5 bytes: o200k averages 4.7 bytes per token on them. The tool budget it
// serves is a soft bound, so the cheap byte count suits it better than
// EstimateTokens, which counts every brace and quote as a token.
func estimateJSONTokens(s string) int { return (2*len(s) + 6) / 7 }

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// englishLike reports whether every adjacent letter pair of w is common in
// English: random strings and abbreviations almost never pass.
func englishLike(w string) bool {
	for i := 0; i+1 < len(w); i++ {
		a, b := w[i]|0x20, w[i+1]|0x20
		if !commonBigram[a-'a'][b-'a'] {
			return false
		}
	}
	return true
}

// commonBigrams are the letter pairs seen at least three times in this
// project's English documentation, built-in SKILL.md files and the MetaTool
// tool descriptions: a fixed table, so the estimate never changes with data.
const commonBigrams = "abacadaeafagaiakalamanaparasatauavawaxaybabbbcbebfbibjblbmbobpbrbsbtbubxbycacbcccechcickclcmcocpcrcsctcucwcydadbdcdddedfdgdidjdkdldmdodrdsdudvdwdyeaebecedeeefegeheiejekelemeneoepeqereseteuevewexeyfafefffiflfofrfsftfufygagcgeggghgiglgngogrgsgtgugygzhahdhehihlhmhohrhshthuhyiaibicidieifigikiliminioipiqirisitivixizjajejojsjukakdkekfkgkiklkmknkoksktkulalblcldlelflhlilklllmlnlolplrlsltlulvlwlymambmcmdmemimkmlmmmnmompmsmtmumynancndnenfngnhninknlnmnnnonpnrnsntnunvnynzoaobocodoeofogoiojokolomonoooporosotouovowoypapdpepgphpipkplpmpoppprpsptpupyqlqrqurarbrcrdrerfrgrirkrlrmrnrorprrrsrtrurvrwrysascsdsesfshsiskslsmsnsospsqsrssstsusvswsytatbtctdtetftgthtitltmtntotptrtstttutwtxtyuaubucudueuguiukulumunuoupurusutuxvavdvevgvivmvovswawdwewgwhwiwlwnwowpwrwsxaxbxcxexixmxpxrxtyayeyiylymynyoypysytywyzzazezizozs"

var commonBigram = func() (t [26][26]bool) {
	for i := 0; i+1 < len(commonBigrams); i += 2 {
		t[commonBigrams[i]-'a'][commonBigrams[i+1]-'a'] = true
	}
	return t
}()
