extension MaskedData {
    /// `matches(_:)` over bytes where they lie (matching reads the advertisement's storage, copying nothing).
    func matches(_ data: UnsafeRawBufferPointer) -> Bool {
        guard data.count >= mask.count else { return false }
        return mask.withUnsafeBufferPointer { mask in
            blob.withUnsafeBufferPointer { blob in
                var i = 0
                while i < mask.count {
                    if data[i] & mask[i] != blob[i] { return false }
                    i += 1
                }
                return true
            }
        }
    }
}
