import CratesCore
import CratesNet
import CratesStore
import Foundation

/// One page of the listing: what each instance means for crates and for Discogs.
extension SyncRun {
    typealias Changes = CollectionStore.SyncPageChanges

    /// Decides about each instance of a page, oldest first, and returns what to write (a
    /// dry run writes nothing and says it instead).
    mutating func plan(_ instances: [DiscogsCollectionInstance], context: CollectionStore.SyncPageContext) -> Changes {
        var changes = Changes()
        var unlinked = context.unlinked
        for instance in instances {
            if reconciledInDryRun.contains(instance.instanceID) { continue }
            if let link = context.links[instance.instanceID] {
                planLinked(instance, link: link, stored: context.conflicts[instance.instanceID] ?? [:], into: &changes)
            } else if var copies = unlinked[instance.releaseID], !copies.isEmpty {
                // The first sync's rule, and a copy added on both sides since: one crates
                // copy and one instance of a release are the same copy, oldest with oldest.
                let copy = copies.removeFirst()
                unlinked[instance.releaseID] = copies
                planNewLink(instance, copy: copy, into: &changes)
            } else if options.pull {
                let values = discogsValues(of: instance, crates: nil)
                let release = instance.release(webBase: client.endpoints.web)
                changes.pulled.append(Changes.Pulled(key: instance.key, release: release, addedAt: instance.addedAt ?? Date(), values: values))
                report.pulled += 1
                if options.dryRun {
                    report.planned.append("would pull: \(SyncReport.clean(release.displayTitle)) (instance \(instance.instanceID))")
                }
            } else {
                report.notPulled += 1
            }
        }
        return changes
    }

    /// A linked instance: its folder kept current, its values merged.
    private mutating func planLinked(
        _ instance: DiscogsCollectionInstance, link: CollectionStore.SyncLink, stored: [SyncField: String?], into changes: inout Changes
    ) {
        guard let copy = link.copy else {
            // Deleted in crates: settled after the listing (`--delete`, or reported). Its
            // folder is kept current for the removal's request.
            if link.folderID != instance.folderID || link.removed {
                changes.refreshes.append(Changes.Link(
                    key: instance.key, recordID: link.recordID, base: link.base, take: nil, expected: link.base))
            }
            return
        }
        let discogs = discogsValues(of: instance, crates: copy.values)
        let decided = decide(base: link.base, copy: copy, discogs: discogs, key: instance.key, stored: stored, into: &changes)
        if decided.base != link.base || decided.take != nil || link.folderID != instance.folderID || link.removed {
            changes.refreshes.append(Changes.Link(
                key: instance.key, recordID: copy.recordID, base: decided.base, take: decided.take, expected: copy.values))
        }
    }

    /// An instance linked now to a copy of its release that was on no instance.
    private mutating func planNewLink(_ instance: DiscogsCollectionInstance, copy: CollectionStore.SyncCopy, into changes: inout Changes) {
        report.linked += 1
        if options.dryRun {
            claimed.insert(copy.recordID)
            report.planned.append("would link: \(copy.recordID) \(SyncReport.clean(copy.title)) with instance \(instance.instanceID)")
        }
        let discogs = discogsValues(of: instance, crates: copy.values)
        let decided = decide(base: .empty, copy: copy, discogs: discogs, key: instance.key, stored: [:], into: &changes)
        changes.links.append(Changes.Link(
            key: instance.key, recordID: copy.recordID, base: decided.base, take: decided.take, expected: copy.values))
    }

    /// The three-way merge of one copy, in the directions this sync goes: fields to take
    /// (returned), fields to push (into `changes`), conflicts (into the report, and into
    /// `changes` when they differ from those `stored` for the instance).
    private mutating func decide(
        base: SyncedValues, copy: CollectionStore.SyncCopy, discogs: SyncedValues, key: DiscogsInstanceKey,
        stored: [SyncField: String?], into changes: inout Changes
    ) -> (base: SyncedValues, take: SyncedValues?) {
        let merge = CopyMerge(base: base, crates: copy.values, discogs: discogs, prefer: options.prefer)
        var newBase = merge.newBase
        var taken = copy.values
        for field in merge.take {
            guard options.pull else {
                newBase = newBase.with(field, from: base)  // not taken: stays a change to take
                continue
            }
            taken = taken.with(field, from: discogs)
            if options.dryRun {
                report.planned.append("would take from Discogs: \(copy.recordID) \(SyncReport.clean(copy.title)): \(field.label) \(SyncReport.shown(discogs.text(field)))")
            }
        }
        if taken != copy.values { report.updatedHere.insert(copy.recordID) }
        if options.push {
            for field in merge.push {
                changes.pushes.append(Changes.Push(key: key, recordID: copy.recordID, field: field, value: copy.values.text(field)))
                if options.dryRun {
                    report.planned.append("would set on Discogs: \(copy.recordID) \(SyncReport.clean(copy.title)): \(field.label) \(SyncReport.shown(copy.values.text(field)))")
                    report.updatedThere.insert(copy.recordID)
                }
            }
        }
        var found: [SyncField: String?] = [:]
        for field in merge.conflicts {
            report.conflicts.append(SyncConflict(
                recordID: copy.recordID, title: copy.title, field: field, crates: copy.values.text(field), discogs: discogs.text(field)))
            found[field] = .some(discogs.text(field))
        }
        if found != stored { changes.conflicts[key.instanceID] = found }
        return (newBase, taken == copy.values ? nil : taken)
    }

    /// An instance's values, its custom fields found by name. A field the user's
    /// collection lacks (renamed, deleted), or a condition that is not one of Discogs'
    /// grades, says nothing about the copy: it counts as crates' own value (nothing to take
    /// or push), and a copy new to crates has none.
    func discogsValues(of instance: DiscogsCollectionInstance, crates: SyncedValues?) -> SyncedValues {
        let read = fields.read(instance.notes)
        var values = SyncedValues(rating: instance.rating, fields: read)
        let unknown = Set(read.unrecognized.map(\.fieldID))
        if fields.media == nil || fields.media.map({ unknown.contains($0.id) }) == true { values.media = crates?.media }
        if fields.sleeve == nil || fields.sleeve.map({ unknown.contains($0.id) }) == true { values.sleeve = crates?.sleeve }
        if fields.notes == nil { values.notes = crates?.notes }
        return values
    }
}
