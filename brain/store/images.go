package store

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// A tool result's images are kept apart from its event: the event's JSON
// holds each image's type and size (imageMeta), and the bytes live in the
// images bucket under imageKey(conversation, seq, n), raw, not base64. So
// the event stays small for everything that reads events without their
// pictures, and the bytes are written once.

// imageMeta is the stored description of one image of an event.
type imageMeta struct {
	MIMEType string `json:"mimeType"`
	Size     int    `json:"size"`
}

func imageMetas(images []provider.Image) []imageMeta {
	if len(images) == 0 {
		return nil
	}
	out := make([]imageMeta, len(images))
	for i, img := range images {
		out[i] = imageMeta{MIMEType: img.MIMEType, Size: len(img.Data)}
	}
	return out
}

// imagesOf is the decoded event's images without their bytes; readEvent
// fills them in (loadImages).
func imagesOf(metas []imageMeta) []provider.Image {
	if len(metas) == 0 {
		return nil
	}
	out := make([]provider.Image, len(metas))
	for i, m := range metas {
		out[i] = provider.Image{MIMEType: m.MIMEType}
	}
	return out
}

// imageKey names image n (from 0) of event seq: the same layout as a
// streamed piece's key, in its own bucket.
func imageKey(id ID, seq uint64, n int) []byte { return pieceKey(id, seq, uint64(n)) }

// putImages stores e's image bytes, replacing any the event had before.
func putImages(tx *bolt.Tx, id ID, e Event) error {
	ib := tx.Bucket([]byte(bucketImages))
	if err := deleteImages(ib, streamKey(id, e.Seq)); err != nil {
		return err
	}
	for n, img := range e.Images {
		if err := ib.Put(imageKey(id, e.Seq, n), img.Data); err != nil {
			return fmt.Errorf("write image %d of event %d: %w", n, e.Seq, err)
		}
	}
	return nil
}

// loadImages copies the bytes of e's images out of the transaction. An
// image whose bytes are missing or of the wrong size keeps no data (a
// provider then describes it instead of sending it).
func loadImages(tx *bolt.Tx, id ID, e *Event) {
	if len(e.Images) == 0 {
		return
	}
	ib := tx.Bucket([]byte(bucketImages))
	for n := range e.Images {
		data := ib.Get(imageKey(id, e.Seq, n))
		if data != nil {
			e.Images[n].Data = bytes.Clone(data)
		}
	}
}

// ImageData is the bytes of image n of event seq of conversation id, as
// stored; ErrNotFound when there are none.
func (d *DB) ImageData(id ID, seq uint64, n int) ([]byte, error) {
	var data []byte
	err := d.bolt.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket([]byte(bucketImages)).Get(imageKey(id, seq, n)); b != nil {
			data = bytes.Clone(b)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read image %d of %s event %d: %w", n, id, seq, err)
	}
	if data == nil {
		return nil, fmt.Errorf("image %d of %s event %d: %w", n, id, seq, ErrNotFound)
	}
	return data, nil
}

// deleteImages removes every image whose key starts with prefix: one
// event's (streamKey), or a whole conversation's (conversationKey).
func deleteImages(ib *bolt.Bucket, prefix []byte) error {
	var keys [][]byte
	c := ib.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	for _, k := range keys {
		if err := ib.Delete(k); err != nil {
			return fmt.Errorf("delete image: %w", err)
		}
	}
	return nil
}
