package store

// ModelChoice is the model a person chose for one conversation, with the
// server it was chosen on: a model name means something only to its
// server, so a choice made for another provider or base URL no longer
// applies once the configuration moves on (the conversation then uses the
// configured model again).
type ModelChoice struct {
	Provider string `json:"provider"`
	BaseURL  string `json:"baseURL"`
	Model    string `json:"model"`
}

// SetModelChoice records the model chosen for conversation id; nil (or an
// empty Model) forgets the choice. Like a rename, it does not move the
// conversation in the list.
func (d *DB) SetModelChoice(id ID, c *ModelChoice) error {
	var keep *ModelChoice
	if c != nil && c.Model != "" {
		cc := *c
		keep = &cc
	}
	return d.updateConversation("set the conversation's model", id, func(conv *Conversation) { conv.Choice = keep })
}
