/// Columns aligned with spaces, for people rather than parsers: every
/// column but the last padded to its widest cell, two spaces between.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []

    func lines(indent: String = "") -> [String] {
        let all = [header] + rows
        let columns = all.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in all {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return all.map { row in
            var line = indent
            for (index, cell) in row.enumerated() {
                let isLast = index == row.count - 1
                line += isLast ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }
            return line
        }
    }
}
