@testable import DynamicsEngine
import Testing

/// The pair table's partner lists: a shape with more pairs than its list holds is answered by the
/// hash map, and listed again once its pairs fall back (`PairTable.relistBelow`).
@Suite struct PairTableTests {
    /// Shape 0 paired with 1…n.
    static func table(partners n: Int32) -> PairTable {
        var t = PairTable()
        for q in 1...n { t.insert(pairKey(0, q), q, crowding: (false, false)) }
        return t
    }

    /// Whether the table holds exactly the pairs of shape 0 with `expected`, among shapes 1…`upTo`.
    static func holds(_ t: PairTable, _ expected: Set<Int32>, upTo n: Int32) -> Bool {
        t.withKeys { view in
            (1...n).allSatisfy { q in
                view.contains(0, q) == expected.contains(q) && view.contains(q, 0) == expected.contains(q)
            }
        }
    }

    @Test func anOverflowedListIsListedAgainWhenItsPairsFall() {
        let n = Int32(PairTable.listCapacity + 6)
        var t = PairTableTests.table(partners: n)
        #expect(t.isOverflowed(0))
        #expect(PairTableTests.holds(t, Set(1...n), upTo: n + 2))
        var left = Set(1...n)
        // every other one first, then the rest, down to one above the threshold: still on the hash map
        let order = stride(from: 1, through: n, by: 2).map { $0 } + stride(from: 2, through: n, by: 2).map { $0 }
        var next = order.makeIterator()
        while left.count > PairTable.relistBelow + 1, let q = next.next() {
            t.remove(pairKey(0, q), crowding: (false, false)); left.remove(q)
        }
        #expect(!t.wantsRelist(0) && t.isOverflowed(0))
        let q = next.next()!
        t.remove(pairKey(0, q), crowding: (false, false)); left.remove(q)
        #expect(t.wantsRelist(0))
        t.relist(0, left.sorted())
        #expect(!t.isOverflowed(0) && !t.wantsRelist(0))
        #expect(t.partnerListsAreConsistent())
        #expect(PairTableTests.holds(t, left, upTo: n + 2))
        // and it keeps working as a list: one more in, one out
        t.insert(pairKey(0, n + 1), n + 1, crowding: (false, false)); left.insert(n + 1)
        let gone = left.min()!
        t.remove(pairKey(0, gone), crowding: (false, false)); left.remove(gone)
        #expect(!t.isOverflowed(0) && t.partnerListsAreConsistent())
        #expect(PairTableTests.holds(t, left, upTo: n + 2))
    }

    /// A wrong partner count (not all of them) leaves the list overflowed: the hash map still
    /// answers, so nothing is lost.
    @Test func anIncompleteRelistIsRefused() {
        let n = Int32(PairTable.listCapacity + 1)
        var t = PairTableTests.table(partners: n)
        for q in 1...(n - Int32(PairTable.relistBelow)) { t.remove(pairKey(0, q), crowding: (false, false)) }
        #expect(t.wantsRelist(0))
        let left = Set((n - Int32(PairTable.relistBelow) + 1)...n)
        t.relist(0, Array(left.dropFirst()))
        #expect(t.isOverflowed(0))
        #expect(PairTableTests.holds(t, left, upTo: n + 2))
    }

    /// In a world: a plank under small discs, more than its list holds, is on the hash map; with
    /// discs taken away until it has `relistBelow` pairs, its list is exact again (the world's
    /// validation checks every list against the pairs at each step) and the pair search still
    /// finds the discs that stay, and those put back.
    @Test func aShapeWhosePairsFallIsListedAgainInAWorld() {
        // the discs kept leave the plank relistBelow pairs: the ground is one more
        let count = PairTable.listCapacity + 6, kept = PairTable.relistBelow - 1
        let w = makeWorld(sleep: false)
        let span = 26 * Float(count)
        addBox(w, .static, at: Vec2(0, 20), half: Vec2(0.5 * span + 100, 10))
        let plank = addBox(w, at: Vec2(0, 0), half: Vec2(0.5 * span, 5))
        func disc(_ k: Int) -> BodyID { addCircle(w, at: Vec2(-0.5 * span + 13 + 26 * Float(k), -15), radius: 10) }
        let discs = (0..<count).map(disc)
        #expect(runValidated(w, steps: 5).isEmpty)
        let plankShape = w.shapes(of: plank)[0].index
        #expect(w.broadPhase.pairs.isOverflowed(plankShape))
        for d in discs.dropLast(kept) { w.destroyBody(d) }
        #expect(!w.broadPhase.pairs.isOverflowed(plankShape))
        #expect(runValidated(w, steps: 5).isEmpty)
        // those left still rest on the plank: each has its touching contact
        let touching = w.touchingContacts()
        for d in discs.suffix(kept) {
            let s = w.shapes(of: d)[0]
            #expect(touching.contains { $0.0 == s || $0.1 == s })
        }
        for k in 0..<(count - kept) { _ = disc(k) }
        #expect(runValidated(w, steps: 5).isEmpty)
        #expect(w.broadPhase.pairs.isOverflowed(plankShape))
    }

    /// A shape of a body with more than `World.relistWalkLimit` contacts (a floor of many shapes) is
    /// not relisted: finding its partners would walk all of them at every such removal. The hash
    /// map still answers (the world validates every step); once the body has few enough
    /// contacts, the next removal relists it.
    @Test func aShapeOfABodyWithManyContactsStaysOnTheHashMap() {
        let w = makeWorld(sleep: false)
        let floor = w.createBody(BodyDef.with(type: .static))
        let countA = PairTable.listCapacity + 6, countB = World.relistWalkLimit
        let spanA = 26 * Float(countA), spanB = 26 * Float(countB)
        let xB = 0.5 * spanA + 500 + 0.5 * spanB
        for (x, span) in [(Float(0), spanA), (xB, spanB)] {
            let top = ShapeGeometry.box(halfWidth: 0.5 * span, halfHeight: 10, center: Vec2(x, 10), angle: 0)
            w.createShape(on: floor, ShapeDef(), top)
        }
        let a = (0..<countA).map { addCircle(w, at: Vec2(-0.5 * spanA + 13 + 26 * Float($0), -10), radius: 10) }
        let b = (0..<countB).map { k in addCircle(w, at: Vec2(xB - 0.5 * spanB + 13 + 26 * Float(k), -10), radius: 10) }
        #expect(runValidated(w, steps: 3).isEmpty)
        let floorShape = w.shapes(of: floor)[0].index
        #expect(w.broadPhase.pairs.isOverflowed(floorShape))
        // down to relistBelow pairs while the floor body has more contacts than the walk limit
        for d in a.prefix(countA - PairTable.relistBelow) { w.destroyBody(d) }
        #expect(w.broadPhase.pairs.wantsRelist(floorShape))
        #expect(runValidated(w, steps: 3).isEmpty)
        // the other shape's discs go until the body is within the limit; the next removal relists
        for d in b.prefix(PairTable.relistBelow + 1) { w.destroyBody(d) }
        #expect(w.broadPhase.pairs.isOverflowed(floorShape))
        w.destroyBody(a[countA - PairTable.relistBelow])
        #expect(!w.broadPhase.pairs.isOverflowed(floorShape))
        #expect(runValidated(w, steps: 3).isEmpty)
    }
}
