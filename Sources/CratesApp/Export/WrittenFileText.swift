import CratesCore
import Foundation

/// What `crates export` and `crates backup` say of a file they wrote, to a person at a
/// terminal (a script reads nothing new).
public enum WrittenFileText {
    /// "Wrote 12 records to shelf.csv (CSV, 2 kB)".
    public static func export(_ count: Int, to path: String, csv: Bool) -> String {
        let form = (csv ? "CSV" : "JSON") + (size(path).map { ", \($0)" } ?? "")
        return "Wrote \(counted(count, "record")) to \(ControlCharacters.cleaned(path)) (\(form))"
    }

    /// "Wrote a backup of the collection to copy.sqlite (53 kB): `crates --db copy.sqlite`
    /// opens it".
    public static func backup(to path: String) -> String {
        let shown = ControlCharacters.cleaned(path)
        return "Wrote a backup of the collection to \(shown)\(size(path).map { " (\($0))" } ?? ""): `crates --db \(shown)` opens it"
    }

    /// The file's size in words ("53 kB"), nil when it cannot be read (a device, gone).
    static func size(_ path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let bytes = (attributes[.size] as? NSNumber)?.int64Value
        else { return nil }
        return ProgressText.bytes(bytes)
    }
}
