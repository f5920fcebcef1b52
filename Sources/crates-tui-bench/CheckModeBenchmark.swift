import CratesApp
import CratesCore
import CratesStore
import CratesTUI
import Foundation

/// Check mode's figure (scripts/bench-check.sh): from the Enter of a wedge scan to its
/// verdict drawn, as the UI loop and the session do it: the key handled (the code goes on
/// the fair's list, its verdict opens), the check (`RecordCheck`: catalogue, collection,
/// wantlist, price cache), the answer applied and the frame rendered. The codes' digits are
/// typed before the clock starts, as a scanner types them before its Enter.
///
///     crates-tui-bench --db PATH --catalogue PATH --check CODES
enum CheckModeBenchmark {
    static func run(database: String, catalogue path: String?, codes file: String) async throws {
        let codes = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        var catalogue: (any ReleaseCatalogue)?
        if let path, case .success(let opened) = openReleaseCatalogue(path: path) { catalogue = opened }
        let store = try CollectionStore(path: database)
        let check = RecordCheck(store: store, catalogue: catalogue, access: nil)
        var state = AppState(width: 120, height: 40)
        _ = state.handle(.resize(width: 120, height: 40))
        state.startChecking()
        var samples: [Double] = []
        var verdicts: [CheckVerdict: Int] = [:]
        var t = 1000.0
        for code in codes {
            for c in code {
                t += 0.01
                _ = state.handle(.key(.character(c), at: t))
            }
            t += 0.01
            let started = TUIBenchmark.now()
            let commands = state.handle(.key(.enter, at: t))
            guard case .session(.check(let reference))? = commands.first(where: { if case .session(.check) = $0 { true } else { false } }) else {
                fatalError("Enter in check mode did not ask for a check: \(commands)")
            }
            let outcome = await check.check(reference.entry, shown: reference.code)
            _ = state.handle(.session(.checked(serial: reference.serial, outcome)))
            _ = state.render()
            samples.append(TUIBenchmark.now() - started)
            if let verdict = outcome.answer?.verdict { verdicts[verdict, default: 0] += 1 }
        }
        let said = CheckVerdict.allCases.compactMap { verdict in verdicts[verdict].map { "\($0) \(verdict.rawValue)" } }.joined(separator: ", ")
        print("crates TUI check mode: \(codes.count) scans (\(said)), 120×40 memory terminal")
        TUIBenchmark.reportPercentiles("Enter of a scan → verdict drawn", samples, target: 0.020, unit: "scans")
    }
}
