import CratesCore

extension AppState {
    /// Applies one event; returns what the workers should do, including what to ask the store
    /// for so that the screen's rows are there.
    public mutating func handle(_ event: AppEvent) -> [AppCommand] {
        let commands = handleEvent(event)
        return commands + storeRequests() + coverRequests()
    }

    mutating func handleEvent(_ event: AppEvent) -> [AppCommand] {
        switch event {
        case .key(let key, let at):
            return handleKey(key, at: at)
        case .resize(let width, let height):
            self.width = max(1, width)
            self.height = max(1, height)
            keepSelectionVisible()
            return []
        case .session(let event):
            return handleSession(event)
        }
    }

    mutating func handleSession(_ event: SessionEvent) -> [AppCommand] {
        switch event {
        case .window(let window):
            apply(window)
            // The store changed (here or in another process: a `crates move`, an import):
            // the places view reads its counts again.
            if case .locations = mode { return [.session(.loadLocations)] }
        case .ask(let question):
            questions.append(question)
        case .details(let details):
            if case .details(var state) = mode, state.recordID == details.record.id {
                if let shown = state.details, shown.release?.id != details.release?.id {
                    forgetCovers(of: details.record.id)  // matched (or matched again): its cover is another
                }
                state.details = details
                mode = .details(state)
            } else if case .picker(var picker) = mode, picker.recordID == details.record.id, picker.search == nil {
                picker.candidates = details.record.candidates
                picker.loading = false
                picker.selected = min(picker.selected, max(0, details.record.candidates.count - 1))
                mode = .picker(picker)
            }
            fillForm(with: details)
            applyNeedsDetails(details)
        case .found(let answer):
            applyFound(answer)
        case .catalogue(let edition):
            catalogue = edition
        case .needsPerson(let ids):
            return applyNeeds(ids)
        case .added(let id):
            // Select it, and ask the store where it is (it is not in the window held yet).
            selectWhenSeen = id
            selectedRecord = id
            sentQuery = nil
            received = false
        case .deleted(let count, let token):
            pushUndo(Undo(token: token, count: count))
            say(count == 1 ? "Deleted 1 record: u to undo" : "Deleted \(count) records: u to undo")
        case .edited(let text, let token):
            pushUndo(Undo(token: token, count: 1))
            say("\(text) (u in the list undoes)")
        case .restored(let count):
            say(count == 1 ? "Restored 1 record" : "Restored \(count) records")
        case .discogs(let status):
            discogs = status
        case .camera(let status):
            // A wedge scanner's user runs no camera daemon: its absence is said once, when
            // nothing else is being said, and stays on the status line only once a daemon
            // was there and went away.
            if status == .connected { cameraSeen = true }
            if status == .noDaemon, !cameraSeen, camera != .noDaemon, message == nil {
                say("No camera daemon (crates scand starts one); a wedge scanner needs none")
            }
            camera = status
        case .waiting(let count):
            waiting = count
        case .message(let text, let isError):
            say(text, isError: isError)
        case .notSignedIn(let need):
            say(Self.notSignedIn(need: need), isError: true)
        case .sync(let status):
            // A sync's figure is its own: none is carried over to the next.
            if status == .idle { syncSecondsLeft = nil }
            sync = status
        case .syncTimeLeft(let seconds):
            syncSecondsLeft = seconds
        case .syncQuestion(let question):
            syncQuestion = question
        case .syncPlan(let plan):
            // Asked alone: nothing was done yet, so no earlier message stands above it or
            // is repeated after the answer.
            message = nil
            syncQuestion = SyncQuestion(text: plan.question, yes: .syncAsPlanned, declined: SyncPlan.declined)
        case .syncConflicts(let conflicts):
            applyConflicts(conflicts)
        case .cameraScan(let scan):
            if let ignored = scan.intent.ignoredMessage {
                say(ignored)
                return []
            }
            // A release URL goes through the prompt's parser too (`CodeEntry`), so both
            // intents are the scan's text; queued behind an open dialog like any camera scan.
            if dialogOpen {
                queued.append(QueuedScan(code: scan.data, method: .camera))
                return []
            }
            return submit(scan.data, method: .camera)
        case .location, .locations, .moved, .select:
            return handleLocationEvent(event)
        case .statistics(let statistics):
            applyStatistics(statistics)
        case .signIn(let event):
            return applySignIn(event)
        case .genres(let names):
            applyGenres(names)
        case .cover(let request, let cover):
            applyCover(request, cover)
        case .checked(let serial, let outcome):
            applyChecked(serial: serial, outcome)
        case .wantlist(let entries):
            applyWantlist(entries)
            for (id, mark) in releaseMarks { releaseMarks[id]?.wanted = mark.wanted && entries.contains { $0.id == id } }
        case .marks(let marks):
            for (id, mark) in marks { releaseMarks[id] = mark }
        case .loans(let listings):
            applyLoans(listings)
        case .tagged(let ids, let title):
            applyTagged(ids, title: title)
        }
        return []
    }

    /// Discogs needs an account: here `A` signs in (a shell command such as `crates auth`
    /// would send the person out of the program). `need`: what asked, before it.
    static func notSignedIn(need: String?) -> String {
        (need.map { $0 + ": " } ?? "") + "not signed in to Discogs: A in the list signs in (a token, or OAuth)"
    }

    mutating func say(_ text: String, isError: Bool = false) {
        message = Message(text: ControlCharacters.cleaned(text), isError: isError)
        keepSelectionVisible()  // a long message takes rows from the list
    }

    // MARK: Keys

    /// One key, to the first of these that takes it, in this order: a text field open (the
    /// code being typed, the filter, a form, the sign-in form: every key is text there, so
    /// nothing above a field may claim it); Ctrl-C and Ctrl-Z; the picker's narrowing and the
    /// rating's digits; a digit anywhere else, which starts a barcode (a wedge scanner's keys
    /// must never be taken as commands); then a question on screen (a delete's or the sync's,
    /// which any other key answers no; an add's, which takes y, n, Enter, Esc and c); then
    /// the mode's own keys. Each step is one
    /// `if`, read top to bottom, because the order is the rule.
    mutating func handleKey(_ key: Key, at time: Double) -> [AppCommand] {
        // A refusal in sight goes at a person's key, which then does what it does.
        if refusalShown != nil, endsRefusalShown(key) {
            refusalShown = nil
            keepSelectionVisible()
        }
        if prompt != nil { return promptKey(key, at: time) }
        if filterEditing { return filterKey(key) }
        // A form is a text field: digits are typed into it, Ctrl-C cancels it.
        if case .form(let form) = mode { return formKey(key, form) }
        if case .signIn(let state) = mode { return signInKey(key, state) }
        if key == .control("c") { return quit() }
        if key == .control("z") { return [.suspend] }
        // So is the picker's narrowing: a catalogue number's digits narrow, not scan.
        if case .picker(let state) = mode { return pickerKey(key, state) }
        if case .verdict(let state) = mode, state.filterEditing { return verdictKey(key, state) }

        // In the rating picker a digit is the stars (`ratingDigit`), not a scan.
        if case .details(let state) = mode, let picker = state.picker, picker.kind == .rating, key.ratingDigit != nil {
            return gradePickerKey(key, picker, state)
        }
        if case .list = mode, let grading = listGrading, grading.picker.kind == .rating, key.ratingDigit != nil {
            return listGradingKey(key, grading)
        }
        // A digit anywhere outside a text field starts barcode entry: a wedge scanner types
        // digits then Enter, and none of its keys may be taken as a command.
        if case .character(let c) = key, c.isASCII, c.isNumber {
            if confirmDelete != nil {
                confirmDelete = nil
                say("Not deleted")
            }
            prompt = Prompt(text: String(c), error: nil, firstKeyAt: time, lastKeyAt: time, allFast: true)
            return []
        }

        if let confirm = confirmDelete {
            confirmDelete = nil
            if key == .character("y") || key == .character("Y") {
                if case .details = mode { mode = .list }
                // Deleted records are tagged no longer (an undo brings them back untagged).
                tags.subtract(confirm.ids)
                return [.session(.delete(confirm.ids))] + drainQueuedScans()
            }
            say("Not deleted")
            return drainQueuedScans()
        }

        if let question = syncQuestion {
            syncQuestion = nil
            if key == .character("y") || key == .character("Y") { return [.session(question.yes)] }
            // After the sync's summary, which the answer never hides.
            say([message?.text, question.declined].compactMap { $0 }.joined(separator: " "), isError: message?.isError ?? false)
            return []
        }

        if let question = questions.first, questionsAnswerable, let answer = Self.answer(to: question, key: key) {
            questions.removeFirst()
            if let request = question.request(for: answer) {
                if case .moveHere(let move) = question.kind, answer == .yes {
                    say("Moving \(move.title)")
                } else {
                    say("Adding \(question.subject)")  // the session says whether it was
                }
                return [.session(request)] + drainQueuedScans()
            }
            if case .moveHere(let move) = question.kind {
                say("Not moved: \(move.title) stays \(move.from.map { "in \($0.name)" } ?? "in no place")")
            } else {
                say("Not added: \(question.subject)")
            }
            return drainQueuedScans()
        }

        if let grading = listGrading, case .list = mode { return listGradingKey(key, grading) }

        switch mode {
        case .list: return listKey(key)
        case .details(let state): return detailsKey(key, state)
        case .picker(let state): return pickerKey(key, state)
        case .help(let scroll): return helpKey(key, scroll)
        case .form(let form): return formKey(key, form)
        case .needs: return needsKey(key)
        case .locations(let state): return locationsKey(key, state)
        case .statistics(let state): return statisticsKey(key, state)
        case .signIn(let state): return signInKey(key, state)
        case .conflicts(let state): return conflictsKey(key, state)
        case .fair(let state): return fairKey(key, state)
        case .verdict(let state): return verdictKey(key, state)
        case .wantlist(let state): return wantlistKey(key, state)
        case .loans(let state): return loansKey(key, state)
        case .refusals(let scroll): return refusalsKey(key, scroll)
        }
    }

    /// The answer `key` gives to `question`: y or n, Enter the question's default (yes to a
    /// move, no to the others), Esc no, c another copy (to a move); nil for any other key.
    static func answer(to question: AddQuestion, key: Key) -> AddQuestion.Answer? {
        switch key {
        case .character("y"), .character("Y"): .yes
        case .character("n"), .character("N"), .escape: .no
        case .enter: question.defaultAnswer
        case .character("c"), .character("C"):
            if case .moveHere = question.kind { .anotherCopy } else { nil }
        default: nil
        }
    }

    mutating func quit() -> [AppCommand] {
        hasQuit = true
        return [.quit]
    }
}
