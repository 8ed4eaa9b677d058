package chat

// TextSizeChanged measures the conversation's rows again after the
// window's text size changed (the shell's Ctrl+plus and Ctrl+minus set
// the theme's text sizes): their heights were measured at the old one.
func (c *Chat) TextSizeChanged() {
	if c.list != nil {
		c.list.textSizeChanged()
	}
	if c.sidebar != nil {
		c.sidebar.textSizeChanged()
	}
}
