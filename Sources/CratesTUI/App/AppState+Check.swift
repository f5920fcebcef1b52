import CratesCore

/// Check mode: at a record fair, every scan or typed code says whether the record is owned
/// (this pressing, or another of its master), wanted or new, and what it is worth, and adds
/// nothing. Each code checked stays in the fair's list, newest first, so that nothing
/// scanned in a burst is lost; from a code's verdict one key adds the pressing to the
/// collection (bought), one to the wantlist, one takes it off.
extension AppState {
    /// One code checked this session.
    public struct FairEntry: Equatable, Sendable {
        public var serial: Int
        /// As typed or scanned.
        public var code: String
        /// What was read (nil: not a code at all, refused before asking).
        public var entry: CodeEntry?
        /// Nil while it is being checked.
        public var outcome: CheckOutcome?

        /// The reference the session checks it again by.
        var reference: CheckReference? { entry.map { CheckReference(serial: serial, entry: $0, code: code) } }
    }

    public struct FairState: Equatable, Sendable {
        public var selected = 0
        public var scroll = 0
    }

    public struct VerdictState: Equatable, Sendable {
        public var serial: Int
        /// The pressing selected among those the code names (index into `shown`).
        public var selected = 0
        /// What narrows the pressings of an ambiguous barcode (as the picker's narrowing).
        public var filter = ""
        public var filterEditing = false
    }

    /// Turns check mode on (the fair's list shows) or off (the collection again).
    mutating func toggleCheckMode() -> [AppCommand] {
        checkMode.toggle()
        if checkMode {
            mode = .fair(FairState())
            say("Check mode: scans add nothing (f leaves it)")
        } else {
            mode = .list
            say("Check mode off: scans add records again")
        }
        return []
    }

    /// Starts in check mode (`crates --check`).
    public mutating func startChecking() {
        checkMode = true
        mode = .fair(FairState())
    }

    /// A code submitted in check mode: it goes on the fair's list at once (checking…), its
    /// verdict opens, and the session checks it.
    mutating func submitCheck(_ text: String, method: AddMethod) -> [AppCommand] {
        let serial = nextCheckSerial
        nextCheckSerial += 1
        let shown = ControlCharacters.cleaned(text.trimmingCharacters(in: .whitespaces))
        var item = FairEntry(serial: serial, code: shown, entry: nil, outcome: nil)
        do {
            item.entry = try CodeEntry.parse(text)
        } catch {
            item.outcome = .refused(code: shown, reason: "\(error)")
        }
        fair.insert(item, at: 0)
        mode = .verdict(VerdictState(serial: serial))
        guard let reference = item.reference else { return [] }
        return [.session(.check(reference))]
    }

    /// A check's answer, into its entry of the fair's list (a recheck replaces it).
    mutating func applyChecked(serial: Int, _ outcome: CheckOutcome) {
        guard let index = fair.firstIndex(where: { $0.serial == serial }) else { return }
        fair[index].outcome = outcome
        if case .verdict(var state) = mode, state.serial == serial {
            state.selected = min(state.selected, max(0, shownReleases(of: fair[index], state).count - 1))
            mode = .verdict(state)
        }
    }

    func fairEntry(_ serial: Int) -> FairEntry? { fair.first { $0.serial == serial } }

    /// The pressings of an entry the narrowing keeps, in their order.
    func shownReleases(of entry: FairEntry, _ state: VerdictState) -> [CheckedRelease] {
        let releases = entry.outcome?.answer?.releases ?? []
        guard !state.filter.isEmpty else { return releases }
        let kept = Set(CandidateFilter(state.filter).apply(releases.map(Self.candidate)).map(\.releaseID))
        return releases.filter { kept.contains($0.id) }
    }

    static func candidate(_ release: CheckedRelease) -> ReleaseCandidate {
        ReleaseCandidate(
            releaseID: release.id, artist: release.artist, title: release.title, country: release.country, year: release.year,
            formats: release.format.map { [$0] } ?? [], label: release.label, catno: release.catno)
    }

    // MARK: Keys

    mutating func fairKey(_ key: Key, _ state: FairState) -> [AppCommand] {
        guard let action = KeyMap.action(for: key, in: .check) else {
            if case .character(let c) = key { say("\(c): no such key (? for help)") }
            return []
        }
        var state = state
        let visible = max(1, listHeight - 1)
        switch action {
        case .moveDown: state.selected = min(max(0, fair.count - 1), state.selected + 1)
        case .moveUp: state.selected = max(0, state.selected - 1)
        case .open:
            guard fair.indices.contains(state.selected) else { return [] }
            mode = .verdict(VerdictState(serial: fair[state.selected].serial))
            return []
        case .checkMode: return toggleCheckMode()
        case .quit: return quit()
        case .back: say("The fair's list: f leaves check mode (scans add nothing until then)")
        case .help:
            mode = .help(scroll: 0)
            return []
        case .redraw: return [.redraw]
        case .bought, .want, .unwant, .prices, .lookUpAgain:
            guard fair.indices.contains(state.selected) else { return [] }
            return verdictAction(action, serial: fair[state.selected].serial, selected: 0)
        default: break
        }
        if state.selected < state.scroll { state.scroll = state.selected }
        if state.selected >= state.scroll + visible { state.scroll = state.selected - visible + 1 }
        mode = .fair(state)
        return []
    }

    mutating func verdictKey(_ key: Key, _ state: VerdictState) -> [AppCommand] {
        var state = state
        if state.filterEditing {
            switch key {
            case .enter: state.filterEditing = false
            case .escape:
                state.filterEditing = false
                state.filter = ""
            case .backspace:
                if state.filter.isEmpty { state.filterEditing = false } else { state.filter.removeLast() }
            case .character(let c) where state.filter.count < 60: state.filter.append(c)
            default: break
            }
            state.selected = 0
            mode = .verdict(state)
            return []
        }
        guard let action = KeyMap.action(for: key, in: .check) else {
            if case .character(let c) = key { say("\(c): no such key (? for help)") }
            return []
        }
        let count = fairEntry(state.serial).map { shownReleases(of: $0, state).count } ?? 0
        switch action {
        case .moveDown: state.selected = min(max(0, count - 1), state.selected + 1)
        case .moveUp: state.selected = max(0, state.selected - 1)
        case .filter: state.filterEditing = true
        case .back, .open, .quit:
            if !state.filter.isEmpty, action == .back {
                state.filter = ""
                break
            }
            let index = fair.firstIndex { $0.serial == state.serial } ?? 0
            mode = .fair(FairState(selected: index, scroll: max(0, index - max(1, listHeight - 1) + 1)))
            return []
        case .checkMode: return toggleCheckMode()
        case .help:
            mode = .help(scroll: 0)
            return []
        case .redraw: return [.redraw]
        case .bought, .want, .unwant, .prices, .lookUpAgain:
            return verdictAction(action, serial: state.serial, selected: state.selected, filter: state)
        default: break
        }
        mode = .verdict(state)
        return []
    }

    /// A verdict's key, on the pressing selected: bought, wanted, unwanted, priced, or the
    /// code asked about again.
    mutating func verdictAction(_ action: Action, serial: Int, selected: Int, filter: VerdictState? = nil) -> [AppCommand] {
        guard let entry = fairEntry(serial) else { return [] }
        let recheck = entry.reference
        if action == .lookUpAgain {
            guard let recheck else { return [] }
            if let index = fair.firstIndex(where: { $0.serial == serial }) { fair[index].outcome = nil }
            say("Checking \(entry.code) again")
            return [.session(.check(recheck))]
        }
        let releases = shownReleases(of: entry, filter ?? VerdictState(serial: serial))
        guard releases.indices.contains(selected) else {
            say(entry.outcome == nil ? "Still checking \(entry.code)" : "\(entry.code): no release to act on", isError: entry.outcome != nil)
            return []
        }
        let release = releases[selected]
        switch action {
        case .bought:
            say("Adding \(release.displayTitle) to the collection")
            return [.session(.addBought(releaseID: release.id, gtin: entry.outcome?.answer?.gtin, recheck: recheck))]
        case .want:
            return [.session(.want(.add(release), recheck: recheck))]
        case .unwant:
            return [.session(.want(.remove(releaseID: release.id), recheck: recheck))]
        case .prices:
            return [.session(.refreshPrices(releases.map(\.id), recheck: recheck))]
        default:
            return []
        }
    }
}
