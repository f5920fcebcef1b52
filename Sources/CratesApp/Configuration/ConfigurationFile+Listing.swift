import CratesCore
import Foundation

extension ConfigurationFile {
    /// `crates config` without arguments: every setting, its value in effect and its
    /// default, aligned; then the file's path.
    public static func listing(_ preferences: Preferences, path: String) -> [String] {
        let entries = ConfigurationFile.entries(preferences)
        let keyWidth = entries.map(\.key.rawValue.count).max() ?? 0
        let values = entries.map { $0.value.isEmpty ? "(none)" : ControlCharacters.cleaned($0.value) }
        let valueWidth = values.map(\.count).max() ?? 0
        var lines = zip(entries, values).map { entry, value in
            entry.key.rawValue.padding(toLength: keyWidth, withPad: " ", startingAt: 0) + "  "
                + value.padding(toLength: valueWidth, withPad: " ", startingAt: 0) + "  "
                + (entry.isSet ? "default: \(entry.defaultText)" : "(default)")
        }
        lines.append("")
        lines.append("# \(path)" + (FileManager.default.fileExists(atPath: path) ? "" : " (not there yet: every setting has its default)"))
        return lines
    }
}
