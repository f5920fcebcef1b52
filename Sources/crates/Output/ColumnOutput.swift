import ArgumentParser
import CratesCore
import Synchronization

/// What `crates list`, `search`, `location list` and `barcode` print, for people and for
/// scripts from the same tab-separated lines: to a pipe or a file the lines as they are
/// (scripts rely on them), with a line of the column names first on request (`--header`);
/// to a terminal, aligned columns under a heading, in readable words, fitted to its width.
///
/// On a terminal the column widths come from the first rows (up to `measured`), so a long
/// listing starts at once and stays small in memory; a later, longer value is cut with "…".
final class ColumnOutput: Sendable {
    enum Form: Equatable {
        /// Tab-separated lines; `header`: the column names first.
        case tabs(header: Bool)
        /// Aligned columns in `width` display columns.
        case aligned(width: Int)
    }

    let form: Form
    private let names: [String]
    private let columns: [TableColumn]
    private let measured: Int
    private let state = Mutex<(buffered: [[String]], widths: [Int]?, rows: Int)>(([], nil, 0))

    /// `names`: the tab-separated lines' column names (the `--header` line); `columns`: the
    /// terminal's.
    init(names: [String], columns: [TableColumn], header: Bool, form: Form? = nil, measured: Int = 200) {
        self.names = names
        self.columns = columns
        self.measured = measured
        self.form = form ?? (StandardStreams.outputIsTerminal ? .aligned(width: StandardStreams.outputWidth) : .tabs(header: header))
    }

    /// Whether anything but the heading was written.
    var wroteRows: Bool { state.withLock { $0.rows > 0 } }

    /// Writes `text`: whole tab-separated lines, each ended by a newline.
    func write(_ text: String) throws {
        if case .tabs(let header) = form {
            // As they are, in one write: splitting a million lines only to join them again
            // cost more than making them.
            var lines = 0
            for byte in text.utf8 where byte == UInt8(ascii: "\n") { lines += 1 }
            guard lines > 0 else { return }
            try StandardStreams.out(headed(lines, header) ? names.joined(separator: "\t") + "\n" + text : text)
            return
        }
        try write(lines: text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init))
    }

    func write(lines: [String]) throws {
        guard !lines.isEmpty else { return }
        switch form {
        case .tabs(let header):
            try StandardStreams.out(lines: (headed(lines.count, header) ? [names.joined(separator: "\t")] : []) + lines)
        case .aligned(let width):
            let rows = lines.map { line in
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return columns.map { $0.value(fields) }
            }
            let ready = state.withLock { state -> [String] in
                state.rows += rows.count
                if let widths = state.widths { return rows.map { TableColumn.line($0, widths: widths, columns: columns) } }
                state.buffered += rows
                guard state.buffered.count >= measured else { return [] }
                return flush(&state, width: width)
            }
            try StandardStreams.out(lines: ready)
        }
    }

    /// Counts `rows` tab-separated rows written; whether the column names go first (the
    /// first rows, with `--header`).
    private func headed(_ rows: Int, _ header: Bool) -> Bool {
        state.withLock { state in
            defer { state.rows += rows }
            return header && state.rows == 0
        }
    }

    /// Writes what the terminal's form still holds; a listing of nothing writes nothing.
    func finish() throws {
        guard case .aligned(let width) = form else { return }
        let ready = state.withLock { state in state.widths == nil && !state.buffered.isEmpty ? flush(&state, width: width) : [] }
        try StandardStreams.out(lines: ready)
    }

    private func flush(_ state: inout (buffered: [[String]], widths: [Int]?, rows: Int), width: Int) -> [String] {
        let widths = TableColumn.widths(columns, rows: state.buffered, width: width)
        state.widths = widths
        defer { state.buffered = [] }
        return [TableColumn.line(columns.map(\.heading), widths: widths, columns: columns)]
            + state.buffered.map { TableColumn.line($0, widths: widths, columns: columns) }
    }
}

/// `--header`, for the commands whose lines are tab-separated columns.
struct HeaderOption: ParsableArguments {
    @Flag(help: "With tab-separated lines (standard output not a terminal): a first line naming the columns.")
    var header = false

    /// `--header` has no use with `--json` (its objects name their fields).
    func check(json: Bool) throws {
        if header, json { throw ValidationError("--header is for the tab-separated lines; --json names every field already") }
    }
}
