package main

import (
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
)

func TestImagesNote(t *testing.T) {
	for _, tc := range []struct {
		images []provider.Image
		want   string
	}{
		{nil, ""},
		{[]provider.Image{{MIMEType: "image/png", Data: make([]byte, 1300)}}, " and 1 image(s): image/png 1300 bytes"},
		{[]provider.Image{{MIMEType: "image/png", Data: []byte("x")}, {MIMEType: "image/gif"}}, " and 2 image(s): image/png 1 bytes, image/gif 0 bytes"},
	} {
		if got := imagesNote(tc.images); got != tc.want {
			t.Errorf("imagesNote(%d images) = %q; want %q", len(tc.images), got, tc.want)
		}
	}
}
