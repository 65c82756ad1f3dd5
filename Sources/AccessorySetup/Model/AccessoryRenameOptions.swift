import AccessoryCore

/// What a rename changes besides the display name (`ASAccessoryRenameOptions`),
/// for `PickerDisplayItem.renameOptions` and `AccessorySession.renameAccessory`.
public typealias AccessoryRenameOptions = PickerDisplayItem.RenameOptions
