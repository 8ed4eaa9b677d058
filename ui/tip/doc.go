// Package tip shows tooltips: a short text by an object while the pointer
// rests on it (Fyne has none of its own).
//
// A tooltip is drawn in a Layer, the top of the window's content, not as a
// pop-up: a pop-up is an overlay, and while one shows Fyne sends every
// click and every pointer move to it alone, so a click on a button whose
// tip was showing only closed the tip, and the tip flickered as the
// pointer moved (the button lost the pointer to the overlay and got it
// back). Nothing in a Layer takes input, so the click reaches the button.
package tip
