import CratesCore

/// Keys on the help screen, and those every view shares.
extension AppState {
    mutating func helpKey(_ key: Key, _ scroll: Int) -> [AppCommand] {
        guard let action = KeyMap.action(for: key, in: .help) else { return [] }
        // Kept within the text: past its end, k would first have to walk back over nothing.
        let last = helpLastScroll
        let scrolled = { (to: Int) in Mode.help(scroll: min(last, max(0, to))) }
        switch action {
        case .moveDown: mode = scrolled(scroll + 1)
        case .moveUp: mode = scrolled(scroll - 1)
        case .pageDown: mode = scrolled(scroll + listHeight - 1)
        case .pageUp: mode = scrolled(scroll - (listHeight - 1))
        case .top: mode = scrolled(0)
        case .bottom: mode = scrolled(last)
        case .back, .quit: mode = walk != nil ? .needs : (checkMode ? .fair(FairState()) : .list)
        case .redraw: return [.redraw]
        default: break
        }
        return []
    }

    /// What `r` says: that the record is looked up again, or, when nothing can look it up
    /// in this run, that it waits in the queue and for what.
    /// `plural`: the subject is several records (the tagged ones).
    func retrySaid(_ subject: String, plural: Bool = false) -> String {
        switch discogs {
        case .lookupsOff: "\(subject) \(plural ? "are" : "is") queued again: lookups are off in this run (--no-lookup)"
        case .notSignedIn: "\(subject) \(plural ? "are" : "is") queued again: Discogs looks \(plural ? "them" : "it") up once you sign in (A)"
        default: "Looking up \(subject) again"
        }
    }

    /// The help's first line when its end is at the screen's foot (0 when it all fits).
    var helpLastScroll: Int {
        max(0, HelpText.lines(width: width).count - listHeight)
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
