import CratesCore

/// Keys on the help screen, and those every view shares.
extension AppState {
    mutating func helpKey(_ key: Key, _ scroll: Int) -> [AppCommand] {
        guard let action = KeyMap.action(for: key, in: .help) else { return [] }
        switch action {
        case .moveDown: mode = .help(scroll: scroll + 1)
        case .moveUp: mode = .help(scroll: max(0, scroll - 1))
        case .pageDown: mode = .help(scroll: scroll + listHeight - 1)
        case .pageUp: mode = .help(scroll: max(0, scroll - (listHeight - 1)))
        case .top: mode = .help(scroll: 0)
        case .back, .quit: mode = walk != nil ? .needs : .list
        case .redraw: return [.redraw]
        default: break
        }
        return []
    }

    /// The keys every view over the list shares (the places, the statistics, the sync's
    /// conflicts): back (or q) to the list, with the scans typed meanwhile; help; redraw.
    /// Nil for any other action: the view's own.
    mutating func viewCommonKey(_ action: Action) -> [AppCommand]? {
        switch action {
        case .back, .quit:
            mode = .list
            return drainQueuedScans()
        case .help:
            mode = .help(scroll: 0)
            return []
        case .redraw:
            return [.redraw]
        default:
            return nil
        }
    }
}
