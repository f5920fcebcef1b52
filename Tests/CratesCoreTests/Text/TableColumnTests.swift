import CratesCore
import Testing

/// The aligned listing `crates list`, `search`, `lookup` and `barcode` print on a terminal.
@Suite("Table columns: widths and lines")
struct TableColumnTests {
    static let columns = [
        TableColumn(heading: "id", field: 0, rightAligned: true),
        TableColumn(heading: "artist", field: 1, cap: 12),
        TableColumn(heading: "title", field: 2),
    ]

    @Test("each column as wide as its widest value, up to its cap; numbers on the right, the last unpadded")
    func fitted() {
        let rows = [["7", "Björk", "Homogenic"], ["12", "Crosby, Stills & Nash", "Déjà Vu"]]
        let widths = TableColumn.widths(Self.columns, rows: rows, width: 80)
        #expect(widths == [2, 12, 9])
        #expect(TableColumn.line(rows[0], widths: widths, columns: Self.columns) == " 7  Björk         Homogenic")
        #expect(TableColumn.line(rows[1], widths: widths, columns: Self.columns) == "12  Crosby, Sti…  Déjà Vu")
    }

    @Test("too wide for the terminal: the widest column gives way first, none below its heading or 6 (nor a narrow one widened)")
    func narrowed() {
        let rows = [["1", "Godspeed You! Black Emperor", "Lift Your Skinny Fists Like Antennas to Heaven"]]
        let widths = TableColumn.widths(Self.columns, rows: rows, width: 30)
        #expect(widths == [2, 12, 12], "\(widths)")
        let tight = TableColumn.widths(Self.columns, rows: rows, width: 5)
        #expect(tight == [2, 6, 6], "\(tight)")
    }
}
