// Package attach reads a file the person attaches to a message and
// decides how it travels: an image (PNG, JPEG, GIF, WebP) as image
// content; a text file or code as its text; a PDF as the text extracted
// from it (github.com/ledongthuc/pdf). The type is taken from the bytes,
// never the name. Limits say what was cut (a text past MaxTextBytes) or
// why a file was refused (too big, binary, unreadable, a PDF without
// text), in words the composer shows as they are.
//
// Nothing here knows the window or the model: brain/assistant turns
// Files into a message (FileMessage), ui/chat shows them as chips.
package attach
