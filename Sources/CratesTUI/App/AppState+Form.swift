import CratesCore
import Foundation

extension AppState {
    // MARK: Opening

    /// Opens the form for `purpose`: at once when the record's details are at hand (or there
    /// is no record), else after they come (`.loadDetails`).
    mutating func openForm(_ purpose: FormState.Purpose, details: RecordDetails? = nil, back: Back) -> [AppCommand] {
        // A form with a genre field offers the collection's genres as it is typed.
        let genres: [AppCommand] = if case .search = purpose { [] } else { [.session(.loadGenres)] }
        guard let id = purpose.recordID, details?.record.id != id else {
            // A search filled from the record asks the catalogue at once.
            return typed(FormState.make(purpose, details: details, back: back)) + genres
        }
        mode = .form(.loading(purpose, back: back))
        return [.session(.loadDetails(id))] + genres
    }

    /// The collection's genres came: the open form offers them.
    mutating func applyGenres(_ names: [String]) {
        guard case .form(var form) = mode else { return }
        form.genres = names
        mode = .form(form)
    }

    /// `s` on the list: a search for the selected record when it is unresolved (ambiguous,
    /// not found, failed) or entered by hand (to link it), else a search that adds a record.
    mutating func openSearchFromList() -> [AppCommand] {
        if let item = selectedItem, [.ambiguous, .notFound, .failed, .handEntered].contains(item.lookupState) {
            return openForm(.search(recordID: item.recordID), back: .list)
        }
        return openForm(.search(recordID: nil), back: .list)
    }

    /// `m` in a record's details: this record entered by hand (its barcode kept), when
    /// Discogs has not matched it; a matched one is edited instead (`e`).
    mutating func enterByHand(from state: DetailsState) -> [AppCommand] {
        switch state.details?.record.lookupState {
        case .matched?, .handEntered?:
            say("Already described: e edits its values")
            return []
        default:
            return openForm(.handEntry(recordID: state.recordID), details: state.details, back: .details(state.recordID))
        }
    }

    /// The details of a record came: a form waiting for them is filled.
    mutating func fillForm(with details: RecordDetails) {
        guard case .form(let form) = mode, form.loading, form.purpose.recordID == details.record.id else { return }
        var filled = FormState.make(form.purpose, details: details, back: form.back)
        filled.genres = form.genres
        mode = .form(filled)
    }

    // MARK: Keys

    /// A form is a text field: every printable key types (digits too: a catalogue number is
    /// not a barcode scan).
    mutating func formKey(_ key: Key, _ form: FormState) -> [AppCommand] {
        var form = form
        if form.loading {
            if KeyMap.action(for: key, in: .form) == .back { return closeForm(form) }
            return []
        }
        if case .character(let c) = key {
            guard form.fields.indices.contains(form.focused) else { return [] }
            let limit = form.fields[form.focused].key == .note ? FormState.maximumNoteTyped : FormState.maximumTyped
            if form.fields[form.focused].text.count < limit { form.fields[form.focused].text.append(c) }
            form.error = nil
            return typed(form)
        }
        if key == .backspace {
            if form.fields.indices.contains(form.focused), !form.fields[form.focused].text.isEmpty {
                form.fields[form.focused].text.removeLast()
            }
            form.error = nil
            return typed(form)
        }
        guard let action = KeyMap.action(for: key, in: .form) else { return [] }
        switch action {
        case .nextField:
            // In the genre field, Tab first takes the genre offered (`genreCompletion`).
            if key == .tab, let genre = form.genreCompletion {
                form.fields[form.focused].text = genre
                form.error = nil
                mode = .form(form)
                return []
            }
            form.focused = (form.focused + 1) % max(1, form.fields.count)
        case .previousField: form.focused = (form.focused + max(1, form.fields.count) - 1) % max(1, form.fields.count)
        case .clearField:
            if form.fields.indices.contains(form.focused) { form.fields[form.focused].text = "" }
            return typed(form)
        case .back: return closeForm(form)
        case .submit: return submitForm(form)
        default: break
        }
        mode = .form(form)
        return []
    }

    /// A field of `form` changed: with a local catalogue, a search form asks it for what is
    /// typed so far (no request: Discogs is asked only on Enter).
    mutating func typed(_ form: FormState) -> [AppCommand] {
        var form = form
        guard case .search(let recordID) = form.purpose, catalogue != nil else {
            mode = .form(form)
            return []
        }
        guard let query = Self.searchQuery(form) else {
            form.preview = nil  // not a search yet (nothing typed, a year alone…)
            mode = .form(form)
            return []
        }
        mode = .form(form)
        return [.session(.searchCatalogue(query, for: recordID))]
    }

    /// The search `form` makes, or nil when it makes none.
    static func searchQuery(_ form: FormState) -> ReleaseSearchQuery? {
        try? ReleaseSearchQuery(
            artist: form.text(.artist), title: form.text(.title), catno: form.text(.catno), label: form.text(.label),
            year: form.text(.year), country: form.text(.country), format: form.text(.format))
    }

    /// Back where the form came from.
    mutating func closeForm(_ form: FormState) -> [AppCommand] {
        goBack(form.back, settled: false)
    }

    /// Returns to `back`: the list, a record's details (fetched again), or the walk (on to
    /// the next record when this one was settled).
    mutating func goBack(_ back: Back, settled: Bool) -> [AppCommand] {
        switch back {
        case .list:
            mode = .list
            return drainQueuedScans()
        case .details(let id):
            mode = .details(DetailsState(recordID: id, details: nil, scroll: 0))
            return [.session(.loadDetails(id))]
        case .needs:
            mode = .needs
            guard var walk else { return [] }
            if settled, let current = walk.current {
                walk.after = current
                walk.loading = true
                walk.details = nil
                self.walk = walk
                return [.session(.loadNeedsPerson)]
            }
            return []
        }
    }

    // MARK: Sending

    mutating func submitForm(_ form: FormState) -> [AppCommand] {
        var form = form
        switch form.purpose {
        case .search(let recordID):
            let query: ReleaseSearchQuery
            do {
                query = try ReleaseSearchQuery(
                    artist: form.text(.artist), title: form.text(.title), catno: form.text(.catno), label: form.text(.label),
                    year: form.text(.year), country: form.text(.country), format: form.text(.format))
            } catch {
                form.error = error.description
                mode = .form(form)
                return []
            }
            form.error = nil
            mode = .picker(PickerState(
                recordID: recordID, subject: Self.describe(query), candidates: [], loading: true, search: form, back: form.back))
            return [.session(.search(query, for: recordID))]
        case .handEntry(let recordID):
            var values: [RecordField: String] = [:]
            for field in form.fields { if let key = field.key.recordField { values[key] = field.text } }
            do {
                let fields = try RecordFields.handEntered(values)
                say(recordID == nil ? "Adding \(fields.description), entered by hand" : "Entered by hand: \(fields.description)")
                // Sent first: the walk's list, asked for next, then no longer has the record.
                return [.session(.enterByHand(fields, for: recordID))] + goBack(form.back, settled: true)
            } catch {
                form.error = error.description
                mode = .form(form)
                return []
            }
        case .edit(let recordID):
            do {
                let edit = try Self.edit(from: form)
                guard !edit.isEmpty else {
                    say("Nothing changed")
                    return goBack(form.back, settled: false)
                }
                return [.session(.edit(recordID, edit))] + goBack(form.back, settled: false)
            } catch let error as RecordFieldError {
                form.error = error.description
                mode = .form(form)
                return []
            } catch let error as FormError {
                form.error = error.description
                if let index = form.fields.firstIndex(where: { $0.key == error.key }) { form.focused = index }
                mode = .form(form)
                return []
            } catch {
                form.error = "\(error)"
                mode = .form(form)
                return []
            }
        }
    }

    /// A value of what was paid or of the loan refused by the edit form: the field it names
    /// takes the cursor, and the message says what it takes.
    struct FormError: Error, Equatable {
        var key: FormState.Key
        var error: PurchaseLoanError

        var description: String {
            let shown = error.shown.map { " “\($0)”" } ?? ""
            return "\(key.label)\(shown): \(error.reason)"
        }
    }

    /// What an edit form changes: a field whose text changed is the collector's value; a
    /// field emptied that was the collector's goes back to Discogs; the note is set or
    /// removed; what was paid, part by part, and the loan, whole. Checked as `crates edit`
    /// checks it.
    static func edit(from form: FormState, now: Date = Date()) throws -> RecordEdit {
        var values: [RecordField: String] = [:]
        var clear: [String] = []
        var note: String?
        for field in form.fields where field.text != field.original && !field.key.isPersonal {
            let blank = field.text.allSatisfy(\.isWhitespace)
            guard let key = field.key.recordField else {
                note = blank ? "" : field.text
                continue
            }
            if blank {
                if field.isCollectors { clear.append(key.rawValue) }
            } else {
                values[key] = field.text
            }
        }
        var edit = try RecordEdit.checked(values: values, clear: clear, note: note)
        func changed(_ key: FormState.Key) -> String? {
            form.fields.first { $0.key == key && $0.text != $0.original }?.text
        }
        // Each part of the purchase alone, so that the error names the field refused.
        for (key, part) in [(FormState.Key.paid, 0), (.currency, 1), (.bought, 2), (.boughtFrom, 3)] {
            guard let text = changed(key) else { continue }
            let change: PurchaseChange
            do {
                change = try PurchaseChange.checked(
                    price: part == 0 ? text : nil, currency: part == 1 ? text : nil, date: part == 2 ? text : nil,
                    from: part == 3 ? text : nil)
            } catch {
                throw FormError(key: key, error: error)
            }
            edit.purchase.price = change.price ?? edit.purchase.price
            edit.purchase.currency = change.currency ?? edit.purchase.currency
            edit.purchase.date = change.date ?? edit.purchase.date
            edit.purchase.from = change.from ?? edit.purchase.from
        }
        if [FormState.Key.lentTo, .lentOn, .returned].contains(where: { changed($0) != nil }) {
            let names = (to: FormState.Key.lentTo.rawValue, since: FormState.Key.lentOn.rawValue, returned: FormState.Key.returned.rawValue)
            do {
                edit.loan = try LoanChange.checked(
                    to: form.text(.lentTo) ?? "", since: form.text(.lentOn) ?? "", returned: form.text(.returned) ?? "",
                    names: names, now: now)
            } catch {
                let key: FormState.Key = switch error {
                case .day(let name, _), .text(let name, _): FormState.Key(rawValue: name) ?? .lentTo
                default: .lentTo
                }
                throw FormError(key: key, error: error)
            }
        }
        return edit
    }

    /// "catalogue number SHVL 804, artist Pink Floyd": a search, for the picker's header.
    static func describe(_ query: ReleaseSearchQuery) -> String {
        query.fields.compactMap { field in query.value(of: field).map { "\(field.name) \($0)" } }.joined(separator: ", ")
    }

    // MARK: Answers

    /// A search answered: its candidates open in the picker, or the form comes back with why
    /// there are none.
    mutating func applyFound(_ answer: ReleaseSearchAnswer) {
        if answer.preview {
            // Shown only while the form still asks the same: an answer to an earlier
            // keystroke that comes late is dropped.
            guard case .form(var form) = mode, form.purpose == .search(recordID: answer.recordID),
                  Self.searchQuery(form) == answer.query
            else { return }
            form.preview = answer
            mode = .form(form)
            return
        }
        guard case .picker(var picker) = mode, picker.loading, picker.recordID == answer.recordID,
              var form = picker.search
        else { return }
        if let failure = answer.notSignedIn ? Self.notSignedIn(need: nil) : answer.failure {
            form.error = failure
            mode = .form(form)
            return
        }
        if answer.candidates.isEmpty {
            let cost = answer.requests == 1 ? "1 request" : "\(answer.requests) requests"
            form.error = "Discogs found nothing for \(picker.subject) (\(cost)): change the search, or m to enter it by hand"
            mode = .form(form)
            return
        }
        picker.candidates = answer.candidates
        picker.loading = false
        picker.requests = answer.requests
        picker.selected = 0
        mode = .picker(picker)
        if !answer.isComplete {
            say("More pressings match than one page holds: type to narrow, or Esc to give more fields")
        }
    }
}
