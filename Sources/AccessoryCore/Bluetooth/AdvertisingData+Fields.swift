extension AdvertisingData {
    /// One variable-length field of the data, borrowed where it lies (valid
    /// only during the `forEachField` call that gives it).
    public enum BorrowedField {
        /// The complete or the shortened local name.
        case name(UnsafeRawBufferPointer, isComplete: Bool)
        /// One UUID of the complete or the incomplete service UUID list.
        case serviceUUID(BluetoothUUID, isComplete: Bool)
        case serviceData(BluetoothUUID, UnsafeRawBufferPointer)
        case manufacturerData(company: UInt16, UnsafeRawBufferPointer)
    }

    /// Calls `body` with every variable-length field in the order the data
    /// keeps them: the complete name, the shortened one; the complete UUID
    /// list, then the incomplete one, each in the order heard; service data
    /// ascending by UUID; manufacturer data by company, each company's values
    /// in the order heard. One walk over the records for the monitor's line:
    /// a walk per kind of field, each a call from another module, cost ~600
    /// instructions a line (callgrind, issue 25).
    public func forEachField(_ body: (BorrowedField) -> Void) {
        records.withView { view in
            // Read through the base address: the view's slices checked their
            // bounds on every record, a third of this walk's cost.
            guard let base = view.bytes.baseAddress else { return }
            var offset = 0
            while offset < view.bytes.count {
                let kind = base.load(fromByteOffset: offset, as: UInt8.self)
                let count = view.bodyCount(at: offset)
                let start = base + offset + ADRecords.headerSize
                switch kind {
                case ADRecords.Kind.completeName, ADRecords.Kind.shortenedName:
                    body(.name(UnsafeRawBufferPointer(start: start, count: count), isComplete: kind == ADRecords.Kind.completeName))
                case ADRecords.Kind.completeUUIDs, ADRecords.Kind.incompleteUUIDs:
                    var position = 0
                    while position < count {
                        let uuid = BluetoothUUID(
                            high: start.loadUnaligned(fromByteOffset: position, as: UInt64.self),
                            low: start.loadUnaligned(fromByteOffset: position + 8, as: UInt64.self))
                        body(.serviceUUID(uuid, isComplete: kind == ADRecords.Kind.completeUUIDs))
                        position += ADRecords.uuidSize
                    }
                case ADRecords.Kind.serviceData:
                    let uuid = BluetoothUUID(
                        high: start.loadUnaligned(as: UInt64.self), low: start.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                    body(.serviceData(uuid, UnsafeRawBufferPointer(start: start + ADRecords.uuidSize, count: count - ADRecords.uuidSize)))
                default:
                    let company = UInt16(littleEndian: start.loadUnaligned(as: UInt16.self))
                    body(.manufacturerData(
                        company: company,
                        UnsafeRawBufferPointer(start: start + ADRecords.companySize, count: count - ADRecords.companySize)))
                }
                offset += ADRecords.headerSize + count
            }
        }
    }
}
