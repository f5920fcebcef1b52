import CratesCore
import Foundation

/// The list's order the collection UI shows, kept between runs in
/// `$XDG_STATE_HOME/crates/list-order` (default `~/.local/state/crates/list-order`): one word
/// ("artist"). A state file, not a setting in the collection: it is how this person looks at
/// the list, not part of the catalogue. So it is kept when the collection is opened
/// read-only (crates reads collections the user may not write), a second UI on the same
/// collection is not woken by it (a write to the store wakes every observer), and a backup
/// or a restore carries only records. The XDG Base Directory Specification names
/// $XDG_STATE_HOME for exactly this: state kept between restarts that is not worth carrying
/// to another machine (a view's layout, a history). Losing the file costs nothing: the order
/// is artist again.
public enum ListOrderMemory {
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/crates/list-order" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.local/state/crates/list-order"
    }

    /// The order remembered; the default when there is none (or the file says something else).
    public static func load(environment: [String: String] = ProcessInfo.processInfo.environment) -> ListOrder {
        guard let path = path(environment: environment),
              let text = try? String(contentsOfFile: path, encoding: .utf8),
              let order = ListOrder(rawValue: text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return .default }
        return order
    }

    /// Keeps `order` for the next run. Never fails the caller: an order not kept comes back
    /// as the default next time, which is all it costs.
    public static func save(_ order: ListOrder, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = path(environment: environment) else { return }
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Written whole then renamed: a crash leaves the old word or the new, never half.
        try? Data((order.rawValue + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
