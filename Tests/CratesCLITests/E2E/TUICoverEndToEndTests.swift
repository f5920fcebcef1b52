import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// Covers in the details view, drawn by the real renderer through ncurses in tmux, fetched
/// from the loopback Discogs server; the screen read back with its colours (`capture-pane -e`).
@Suite("TUI covers end to end", .serialized, .processTimeLimit)
struct TUICoverEndToEndTests {
    /// The details' cover box at 100×30 (`AppState.detailsCoverBox`): rows 1 to 12, 24
    /// columns beside the text, its left edge at column 100 - 24 - 1.
    static let coverColumn = 75
    static let coverRows = 1...12

    /// A sandbox signed in to `server`, with the releases added (matched, in full).
    private func collection(_ server: DiscogsTestServer, releases: [Int]) async throws -> (TUIEndToEndTests.Sandbox, [String: String]) {
        let sandbox = try TUIEndToEndTests.Sandbox()
        var environment = sandbox.environment
        environment["CRATES_DISCOGS_API"] = server.base
        environment["CRATES_DB"] = sandbox.database
        // Covers are drawn only in colour: the test runner's own NO_COLOR=1 (swift test sets it
        // when its output is not a terminal) would hide them, as it should for a person.
        environment["NO_COLOR"] = ""
        let auth = try await ProcessRunner.crates(["auth", "--token"], environment: environment, stdin: Data((server.token + "\n").utf8))
        #expect(auth.status == 0, "\(auth)")
        for release in releases {
            let added = try await ProcessRunner.crates(["add", "r\(release)"], environment: environment)
            #expect(added.status == 0, "\(added)")
        }
        return (sandbox, environment)
    }

    private func start(_ sandbox: TUIEndToEndTests.Sandbox, _ environment: [String: String], extra: String = "") async throws -> TmuxSession {
        let binary = try ProcessRunner.cratesBinary().path
        return try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) --db \(TmuxSession.quote(sandbox.database)) --no-scanner \(extra)",
            environment: environment, width: 100, height: 30)
    }

    /// The words in the cover box, its lines joined (a placeholder wraps in its 22 columns).
    static func coverText(_ lines: [String]) -> String {
        lines.indices.filter(coverRows.contains).map { lines[$0] }
            .map { String($0.dropFirst(coverColumn)).trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    /// The details' title line (artist — title).
    static func detailsTitle(_ lines: [String]) -> String {
        lines.count > 1 ? String(lines[1].prefix(coverColumn)).trimmingCharacters(in: .whitespaces) : ""
    }

    static let placeholders = ["no cover on Discogs", "not an image crates reads"]

    /// The image requests the server answered for `release`.
    private func imageRequests(_ server: DiscogsTestServer, release: Int) async throws -> Int {
        try await server.coverCounts().paths.filter { $0.key.contains("/R-\(release)-") }.values.reduce(0, +)
    }

    /// The details of HammerFall, whose cover is the left half red, the right half blue: red
    /// cells left of blue ones, beside the text; I hides them and shows them again.
    @Test("the cover is drawn in its colours, in their places; I hides it")
    func coverInItsColours() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.setCover(release: 5_134_861, "jpeg")
        let (sandbox, environment) = try await collection(server, releases: [5_134_861])
        let tmux = try await start(sandbox, environment)
        try await tmux.waitFor(text: "HammerFall")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "NB 265-2")
        let cover = try await tmux.waitForColours("red and blue cells") { $0.count(.red) >= 6 && $0.count(.blue) >= 6 }
        let red = cover.cells(.red)
        let blue = cover.cells(.blue)
        // Left half red, right half blue, on the same rows, in the box beside the text.
        #expect(Set(red.map(\.row)) == Set(blue.map(\.row)))
        for row in Set(red.map(\.row)) {
            let reds = red.filter { $0.row == row }.map(\.column)
            let blues = blue.filter { $0.row == row }.map(\.column)
            #expect(reds.max()! < blues.min()!, "row \(row): red \(reds), blue \(blues)")
        }
        #expect(red.map(\.column).min()! >= Self.coverColumn, "beside the text")
        #expect(cover.lines.contains { $0.contains("Glory To The Brave") }, "the text is there too")

        try await tmux.press("I")
        try await tmux.waitForColours("no cover") { $0.count(.red) == 0 && $0.count(.blue) == 0 }
        try await tmux.waitFor(text: "Covers hidden")
        try await tmux.press("I")
        try await tmux.waitForColours("the cover again") { $0.count(.red) >= 6 && $0.count(.blue) >= 6 }
        try await tmux.waitFor(text: "Covers shown")
        try await tmux.press("Escape", "q")
        #expect(try await tmux.exitReport().status == 0)
        #expect(try await server.coverCounts().requests == 1)
    }

    /// A 404 and a corrupt JPEG: each its placeholder, never an error; with --no-covers the
    /// details show no cover at all (and fetch none) until I shows them.
    @Test("a missing image and a corrupt one show the placeholder; --no-covers shows none")
    func placeholders() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.setCover(release: 5_134_861, "404")
        try await server.setCover(release: 10_507_194, "corrupt")
        let (sandbox, environment) = try await collection(server, releases: [5_134_861, 10_507_194])
        let tmux = try await start(sandbox, environment)
        try await tmux.waitFor(text: "HammerFall")
        // The first record's details, then the other's: each with its placeholder.
        try await tmux.press("Home", "Enter")
        let first = try await tmux.waitFor("a placeholder") { Self.placeholders.contains(Self.coverText($0)) }
        try await tmux.press("Escape")
        try await tmux.waitFor("the list") { !($0.first ?? "").contains("details") }
        try await tmux.press("Down", "Enter")
        let second = try await tmux.waitFor("the other record's placeholder") { lines in
            Self.detailsTitle(lines) != Self.detailsTitle(first) && Self.placeholders.contains(Self.coverText(lines))
        }
        var seen: [String: String] = [:]
        for lines in [first, second] { seen[Self.detailsTitle(lines)] = Self.coverText(lines) }
        #expect(seen == [
            "HammerFall — Glory To The Brave": "no cover on Discogs",
            "HOLOVR — Likemind 05": "not an image crates reads",
        ])
        let both = (first + second).joined(separator: "\n")
        #expect(!both.contains("error") && !both.contains("Error"))
        try await tmux.press("Escape", "q")
        #expect(try await tmux.exitReport().status == 0)
        #expect(try await server.coverCounts().requests == 2)

        // --no-covers: no box, no placeholder, nothing asked of Discogs; I shows the covers
        // (from the cache on disk: the 404 is remembered, the corrupt image kept).
        let off = try await start(sandbox, environment, extra: "--no-covers")
        try await off.waitFor(text: "HammerFall")
        try await off.press("Home", "Enter")
        let screen = try await off.waitFor(text: "Barcode")
        #expect(Self.coverText(screen).isEmpty, "no cover box: \(Self.coverText(screen))")
        try await off.press("I")
        try await off.waitFor(text: "Covers shown")
        try await off.waitFor("the placeholder, once I shows covers") { Self.placeholders.contains(Self.coverText($0)) }
        try await off.press("Escape", "q")
        #expect(try await off.exitReport().status == 0)
        #expect(try await server.coverCounts().requests == 2, "nothing fetched again")
    }

    /// Fetched once across two runs: the second draws it from the cache on disk.
    @Test("a cover is fetched once across two runs")
    func fetchedOnce() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.setCover(release: 5_134_861, "png")
        let (sandbox, environment) = try await collection(server, releases: [5_134_861])
        for run in 1...2 {
            let tmux = try await start(sandbox, environment)
            try await tmux.waitFor(text: "HammerFall")
            try await tmux.press("Enter")
            try await tmux.waitForColours("the cover (run \(run))") { $0.count(.red) >= 6 && $0.count(.blue) >= 6 }
            try await tmux.press("Escape", "q")
            #expect(try await tmux.exitReport().status == 0)
            #expect(try await imageRequests(server, release: 5_134_861) == 1, "run \(run)")
        }
        #expect(try await server.coverCounts().requests == 1)
    }
}

/// The screen with its colours, from `capture-pane -p -e`: each cell's character and its
/// foreground and background (an xterm index, or 24-bit as 0x1000000 + RGB).
struct ColouredScreen {
    struct Cell {
        var character: Character
        var foreground: Int?
        var background: Int?
    }

    enum Hue { case red, blue }

    var rows: [[Cell]]

    var lines: [String] { rows.map { String($0.map(\.character)) } }

    init(_ text: String) {
        rows = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var cells: [Cell] = []
            var (fg, bg): (Int?, Int?) = (nil, nil)
            var scalars = Array(line.unicodeScalars)[...]
            while let scalar = scalars.first {
                scalars = scalars.dropFirst()
                guard scalar == "\u{1B}" else {
                    cells.append(Cell(character: Character(scalar), foreground: fg, background: bg))
                    continue
                }
                guard scalars.first == "[" else { continue }
                scalars = scalars.dropFirst()
                var parameters = ""
                while let next = scalars.first, !(next.properties.isAlphabetic) {
                    parameters.unicodeScalars.append(next)
                    scalars = scalars.dropFirst()
                }
                let final = scalars.first
                scalars = scalars.dropFirst()
                guard final == "m" else { continue }
                var codes = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
                if codes.isEmpty { codes = [0] }
                while let code = codes.first {
                    codes = codes.dropFirst()
                    switch code {
                    case 0: (fg, bg) = (nil, nil)
                    case 39: fg = nil
                    case 49: bg = nil
                    case 30...37: fg = code - 30
                    case 40...47: bg = code - 40
                    case 90...97: fg = code - 90 + 8
                    case 100...107: bg = code - 100 + 8
                    case 38, 48:
                        var colour: Int?
                        if codes.first == 5, codes.count >= 2 {
                            colour = codes.dropFirst().first
                            codes = codes.dropFirst(2)
                        } else if codes.first == 2, codes.count >= 4 {
                            let rgb = Array(codes.dropFirst().prefix(3))
                            colour = 0x100_0000 + (rgb[0] << 16 | rgb[1] << 8 | rgb[2])
                            codes = codes.dropFirst(4)
                        }
                        if code == 38 { fg = colour } else { bg = colour }
                    default: break
                    }
                }
            }
            rows.append(cells)
        }
    }

    /// A cover's hue of `colour`. Only the colours covers are drawn in count: 24-bit ones and
    /// the 256-colour palette's (16 and up); the eight basic colours are the styles' (the
    /// status line's blue on white, an error's red), never a cover's on this terminal.
    static func hue(_ colour: Int?) -> Hue? {
        guard let colour, colour >= 16 else { return nil }
        if colour >= 0x100_0000 {
            let (r, g, b) = ((colour >> 16) & 0xFF, (colour >> 8) & 0xFF, colour & 0xFF)
            if r > 180, g < 80, b < 80 { return .red }
            if b > 180, r < 80, g < 80 { return .blue }
            return nil
        }
        switch colour {
        case 124, 160, 196: return .red
        case 18, 19, 20, 21: return .blue
        default: return nil
        }
    }

    /// The cells of one hue (foreground or background; a cell of both is neither).
    func cells(_ hue: Hue) -> [(row: Int, column: Int)] {
        var out: [(row: Int, column: Int)] = []
        for (r, row) in rows.enumerated() {
            for (c, cell) in row.enumerated() {
                let hues = Set([Self.hue(cell.foreground), Self.hue(cell.background)].compactMap { $0 })
                if hues == [hue] { out.append((r, c)) }
            }
        }
        return out
    }

    func count(_ hue: Hue) -> Int { cells(hue).count }
}

extension TmuxSession {
    /// The screen with its colours.
    func colouredScreen() async throws -> ColouredScreen {
        ColouredScreen(try await tmux(["capture-pane", "-p", "-e"]).stdout)
    }

    /// Looks at the screen's colours until `condition` holds.
    @discardableResult
    func waitForColours(_ what: String, deadline: Duration = defaultWaitDeadline, _ condition: @escaping (ColouredScreen) -> Bool) async throws -> ColouredScreen {
        try await CratesTestSupport.waitFor(
            what, within: deadline, every: .milliseconds(50),
            lastSeen: { (try? await self.screen().joined(separator: "\n")) ?? "(no screen)" }
        ) { () async throws -> ColouredScreen? in
            let screen = try await colouredScreen()
            return condition(screen) ? screen : nil
        }
    }
}
