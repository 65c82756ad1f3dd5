import AccessoryCore

extension AccessorySetupError {
    /// What `showPicker` throws when the task awaiting it is cancelled. ASK
    /// has no code for "the app stopped waiting"; `userCancelled` is the
    /// nearest, and the reason tells it from a person's denial.
    public static let pickerTaskCancelled = AccessorySetupError(
        .userCancelled, reason: .message("the task awaiting showPicker was cancelled"))
}
