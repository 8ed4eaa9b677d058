package wordcount

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func TestCountWords(t *testing.T) {
	p, err := Init(&sdk.Env{Name: "wordcount"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args string
		want string
	}{
		{`{"text":"the cat and the hat\nThe end","top":2}`,
			`{"words":7,"lines":2,"chars":27,"top":[{"word":"the","count":3},{"word":"and","count":1}]}`},
		{`{"text":""}`, `{"words":0,"lines":0,"chars":0,"top":[]}`},
		{`{"text":"héllo wörld\n","top":0}`, `{"words":2,"lines":1,"chars":12,"top":[]}`},
	}
	for _, tc := range cases {
		req, err := sdk.NewRequest("count_words", []byte(tc.args))
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Handler("count_words")(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(res.JSON)
		if string(got) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, got, tc.want)
		}
	}
}
