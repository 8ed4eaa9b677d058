package cerebellum

import "errors"

// Sentinel errors of the capability engine. Callers match them with
// errors.Is; messages wrapped around them say what to do.
var (
	// ErrNotFound: no capability has that name.
	ErrNotFound = errors.New("no such capability")
	// ErrUnknownTool: no capability declares that tool.
	ErrUnknownTool = errors.New("unknown tool")
	// ErrDisabled: the capability is switched off.
	ErrDisabled = errors.New("capability is disabled")
	// ErrFailed: the capability failed to load.
	ErrFailed = errors.New("capability failed to load")
	// ErrNotGranted: the capability's plugin declares permissions the user
	// has not granted, so none of its code runs yet. It is not a failure:
	// granting them makes it usable.
	ErrNotGranted = errors.New("capability needs permissions that are not granted")
	// ErrChangedOnDisk: a plugin's code on disk is not the code the current
	// snapshot read (an edit not applied yet); it does not load until the
	// change is applied.
	ErrChangedOnDisk = errors.New("capability changed on disk")
	// ErrInvalidArgs: tool arguments do not match the tool's schema.
	ErrInvalidArgs = errors.New("invalid tool arguments")
	// ErrNoRuntime: nothing can run this capability's tools.
	ErrNoRuntime = errors.New("no runtime for capability")
	// ErrReadOnly: built-in capabilities cannot be changed or removed.
	ErrReadOnly = errors.New("capability ships with Wrasse and cannot be changed")
	// ErrOutsideFolder: a path escapes the capability folder.
	ErrOutsideFolder = errors.New("path is outside the capability folder")
	// ErrEmptyQuery: tool_search needs words to search for.
	ErrEmptyQuery = errors.New("empty search query")
	// ErrInvalidCapability: a capability failed validation.
	ErrInvalidCapability = errors.New("capability is not valid")
	// ErrExists: a capability of that name is installed and Replace was not asked for.
	ErrExists = errors.New("capability already installed")
	// ErrNotInTrash: nothing of that name can be restored.
	ErrNotInTrash = errors.New("no removed capability of that name")
	// ErrNoWorkspace: the registry has no workspace to install into.
	ErrNoWorkspace = errors.New("no workspace folder")
	// ErrUnknownSetting: the capability declares no setting of that key.
	ErrUnknownSetting = errors.New("unknown capability setting")
	// ErrInvalidSetting: a value does not fit the setting's type or choices.
	ErrInvalidSetting = errors.New("invalid capability setting")
	// ErrLaunchChanged: what an MCP capability runs (its mcp: block, or a
	// file its command runs) is not what the person was shown when they
	// approved it; nothing was enabled.
	ErrLaunchChanged = errors.New("what the MCP server runs changed since it was shown")
	// ErrOverBudget: none of a capability's tools fits the tool budget on
	// its own, so no request can carry one.
	ErrOverBudget = errors.New("capability's tools do not fit the tool budget")

	// ErrCollection: the input holds several skills; install them with
	// InstallCollection (a *CollectionError names them).
	ErrCollection = errors.New("holds several skills")
	// ErrNotInCollection: a skill asked for is not in the collection.
	ErrNotInCollection = errors.New("no such skill in the collection")
)
