import DynamicsEngine
import Foundation

/// Counters of an animator's world for tools: the renderer's status line, the playground's stats
/// line and the benchmark's table. Reading them changes nothing (no synchronisation, no waking).
package struct AnimatorStatistics: Sendable, Equatable {
    /// Items in the world (a group counts once).
    package var items: Int
    /// Items at rest: asleep or anchored.
    package var restingItems: Int
    /// Engine joints: one per attachment or snap in the world.
    package var joints: Int
    /// Broad-phase pairs, touching or not: Box2D's "contact" counter.
    package var contacts: Int
    /// Pairs whose shapes touch.
    package var touchingContacts: Int

    /// Items that are moving: `items − restingItems`.
    package var awakeItems: Int { items - restingItems }
}

extension DynamicAnimator {
    /// The world's counters now (see ``AnimatorStatistics``). O(items + contacts).
    package var statistics: AnimatorStatistics {
        var resting = 0
        for r in records where r.properties.isAnchored || !world.isAwake(r.body) { resting += 1 }
        return AnimatorStatistics(items: records.count, restingItems: resting, joints: world.jointCount,
                                  contacts: world.contactCount, touchingContacts: world.touchingContactCount)
    }
}
