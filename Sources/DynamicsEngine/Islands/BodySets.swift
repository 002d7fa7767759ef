/// Which bodies a step moves and which sleep together: the awake list and the sleeping islands
/// (Box2D v3's solver sets: one awake set, one set per sleeping island).
///
/// Owns the lists only; the bodies hold the matching back links (`Body.awakeIndex`,
/// `Body.sleepIsland`), which `World+Awake.swift` keeps in step with them. Invariants (checked by
/// `World.validate`): body `awake[k]` has awake index k, and every other body −1; a body in
/// `sleepIslands[i]` has sleep island i; an island slot is empty exactly when it is in
/// `freeSleepIslands`. The awake order is the step's body order, so it is saved in a snapshot.
struct BodySets {
    /// Dense list of awake (dynamic or kinematic) bodies, in the order the step solves them.
    var awake: [Int32] = []
    /// The bodies the last step moved: `awake` as it was when the step solved them (a body that
    /// fell asleep at the end of the step moved in it too). Box2D's body move events.
    var moved: [Int32] = []
    /// Sleeping islands: the bodies that fell asleep together and must wake together.
    var sleepIslands: [[Int32]] = []
    /// Empty island slots, reused (last freed first) before the list grows.
    var freeSleepIslands: [Int32] = []

    /// Appends body `bi` to the awake list; returns its awake index.
    mutating func appendAwake(_ bi: Int32) -> Int32 {
        awake.append(bi)
        return Int32(awake.count - 1)
    }

    /// Takes awake index `ai` out of the list by moving the last entry into it (O(1)); returns
    /// the body that moved into `ai`, or nil when `ai` was the last.
    mutating func removeAwake(at ai: Int) -> Int32? {
        let last = awake.removeLast()
        guard ai < awake.count else { return nil }
        awake[ai] = last
        return last
    }

    /// Records `members` as one sleeping island, in a free slot if there is one; returns its slot.
    mutating func newSleepIsland(_ members: [Int32]) -> Int32 {
        if let f = freeSleepIslands.popLast() { sleepIslands[Int(f)] = members; return f }
        sleepIslands.append(members)
        return Int32(sleepIslands.count - 1)
    }

    /// Takes body `bi` out of island `isl`, freeing the slot when it was the last member.
    mutating func remove(_ bi: Int32, fromSleepIsland isl: Int) {
        if let k = sleepIslands[isl].firstIndex(of: bi) { sleepIslands[isl].remove(at: k) }
        if sleepIslands[isl].isEmpty { freeSleepIslands.append(Int32(isl)) }
    }

    /// Empties island `isl` and frees its slot; returns its members (they wake together).
    mutating func takeSleepIsland(_ isl: Int) -> [Int32] {
        let members = sleepIslands[isl]
        sleepIslands[isl] = []
        freeSleepIslands.append(Int32(isl))
        return members
    }

    /// What a snapshot does with each stored property (`SnapshotFormatTests` checks this list
    /// against the struct).
    static let snapshotCoverage: KeyValuePairs<String, String> = [
        "awake": "saved", "sleepIslands": "saved", "freeSleepIslands": "saved",
        "moved": "the last step's output: cleared on restore",
    ]
}
