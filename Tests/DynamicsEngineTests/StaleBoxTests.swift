@testable import DynamicsEngine
import Foundation
import Testing

/// Shapes that meet nothing (no category in use passes their mask) have no pair to find, so while
/// no query grid is kept the step leaves their boxes behind their bodies; every reader of boxes
/// brings them up to date first. These tests read the boxes through each reader and check them
/// against the bodies' poses, and check that when the boxes are brought up to date changes
/// nothing a later step does.
@Suite struct StaleBoxTests {
    /// Circles of radius 5 falling freely (mask 0: they meet nothing) above a floor, and (with
    /// `box`) a box beside them that collides as usual; without it no moving shape meets
    /// anything, and the step makes no box pass at all.
    static func fallingWorld(count: Int = 120, box: Bool = true) -> (World, [BodyID]) {
        let w = makeWorld(gravity: Vec2(0, 1000), sleep: true, validate: true)
        addBox(w, .static, at: Vec2(0, 600), half: Vec2(2000, 10))
        if box { addBox(w, at: Vec2(600, 500), half: Vec2(20, 20)) }
        var falling: [BodyID] = []
        for k in 0..<count {
            var bd = BodyDef()
            bd.position = Vec2(Float(k % 20) * 30 - 300, Float(k / 20) * 30 - 400)
            let body = w.createBody(bd)
            var sd = ShapeDef()
            sd.filter = Filter(categoryBits: 2, maskBits: 0)
            w.createShape(on: body, sd, .circle(center: .zero, radius: 5))
            falling.append(body)
        }
        return (w, falling)
    }

    /// A circle's box is its centre ± its radius, exactly (the centre is the body's origin).
    static func expectBoxesFollow(_ w: World, _ bodies: [BodyID], _ comment: Comment) {
        for b in bodies {
            let p = w.position(b)
            #expect(w.aabb(w.shapes(of: b)[0]) == AABB(lower: p - Vec2(5, 5), upper: p + Vec2(5, 5)), comment)
        }
    }

    /// After 40 steps with no query, every falling circle's box is where its body is, through
    /// `aabb`, the walks and the grid queries; the validation walk (on every step) found no box
    /// left behind while a query grid was kept.
    @Test(arguments: [true, false])
    func everyReaderSeesTheBoxesOfThePose(box: Bool) {
        let (w, falling) = StaleBoxTests.fallingWorld(box: box)
        #expect(runValidated(w, steps: 40).isEmpty)
        // they fell: 40 steps of 1/60 s under 1 000 pt/s² is over 200 pt
        #expect(w.position(falling[0]).y > -400 + 200)
        StaleBoxTests.expectBoxesFollow(w, falling, "after 40 steps")
        // the walks and the grid agree, at every circle's centre
        let centers = falling.map { w.position($0) }
        for p in centers {
            let walk = w.shapesByWalk(containing: p)
            #expect(walk.count == 1)
            #expect(w.shapes(containing: p) == walk)
        }
        // the grid keeps up from here on (a query built it): more steps, still exact
        run(w, steps: 10)
        StaleBoxTests.expectBoxesFollow(w, falling, "10 steps after the first query")
        for p in falling.map({ w.position($0) }) { #expect(w.shapes(containing: p) == w.shapesByWalk(containing: p)) }
    }

    /// A snapshot holds the boxes of the pose, and a world restored from it continues as the
    /// original does.
    @Test func aSnapshotHoldsTheBoxesOfThePose() throws {
        let (w, falling) = StaleBoxTests.fallingWorld()
        run(w, steps: 30)
        let saved = w.snapshot()
        let (copy, _) = StaleBoxTests.fallingWorld()
        try copy.restore(saved)
        StaleBoxTests.expectBoxesFollow(copy, falling, "restored")
        run(w, steps: 30)
        run(copy, steps: 30)
        #expect(w.stateHash() == copy.stateHash())
        StaleBoxTests.expectBoxesFollow(copy, falling, "restored, 30 steps on")
    }

    /// Circles that fell for most of a second without meeting anything are made to collide: each
    /// enters the pair search at its body, not where it started, so they land on the floor (a
    /// stale fat box would leave them falling through it). Bringing the boxes up to date at other
    /// times changes nothing: a world never read, one snapshotted and read every few steps, and
    /// one queried after every step (its query grid kept, so its boxes never left behind) end
    /// bit for bit alike.
    @Test func shapesThatStartCollidingEnterWhereTheyAre() {
        let (quiet, falling) = StaleBoxTests.fallingWorld(count: 60)
        let (read, _) = StaleBoxTests.fallingWorld(count: 60)
        let (queried, _) = StaleBoxTests.fallingWorld(count: 60)
        for step in 0..<45 {
            for w in [quiet, read, queried] { w.step(dt: 1.0 / 60, substeps: 4) }
            if step % 7 == 3 { _ = read.snapshot() }
            if step % 11 == 5 { _ = read.aabb(read.shapes(of: falling[3])[0]) }
            #expect(queried.shapes(containing: queried.position(falling[step])).count == 1)
        }
        // the floor's top is at y = 590: a resting circle's centre at 585
        #expect(falling.allSatisfy { quiet.position($0).y < 585 - 100 })
        for w in [quiet, read, queried] {
            for b in falling { w.setFilter(w.shapes(of: b)[0], Filter(categoryBits: 2, maskBits: 1)) }
            #expect(runValidated(w, steps: 240).isEmpty)
        }
        for b in falling {
            #expect(abs(quiet.position(b).y - 585) < 1, "circle \(b) at \(quiet.position(b))")
        }
        #expect(quiet.stateHash() == read.stateHash())
        #expect(quiet.stateHash() == queried.stateHash())
    }

    /// Circles drifting slowly (no gravity: 6 to 30 pt/s, so a fat box's margin lasts them
    /// several steps) among colliding boxes, meeting nothing: half by their mask (0), half because
    /// the one category their mask takes (4) is in no use. Three worlds: never read (the steps
    /// leave the circles' boxes behind), snapshotted now and then, and queried after every step
    /// (its query grid kept, so the step keeps the boxes, fat ones with their hysteresis). The
    /// first half are then made to collide (`setFilter`) and a static box of category 4 brings
    /// in the second: every circle enters the pair search with the box of its pose and that box's
    /// fat box (grown by the speculative distance and the margin), in all three worlds alike, and the worlds go on bit for bit alike.
    @Test func aShapeThatStartsMeetingSomethingEntersWithTheBoxesOfItsPose() {
        func drifting() -> (World, [BodyID]) {
            let w = makeWorld(gravity: .zero, sleep: false, validate: true)
            var rng = SplitMix64(seed: 31)
            for k in 0..<40 {
                addBox(w, at: Vec2(Float(k % 8) * 60 - 240, Float(k / 8) * 60 - 150), half: Vec2(12, 12))
            }
            var circles: [BodyID] = []
            for k in 0..<80 {
                var bd = BodyDef()
                bd.position = Vec2(Float(k % 10) * 50 - 250 + 25, Float(k / 10) * 40 - 170 + 20)
                bd.linearVelocity = Vec2(uniform(-30...30, &rng), uniform(-30...30, &rng))
                let body = w.createBody(bd)
                var sd = ShapeDef()
                sd.filter = Filter(categoryBits: 2, maskBits: k % 2 == 0 ? 0 : 4)
                w.createShape(on: body, sd, .circle(center: .zero, radius: 5))
                circles.append(body)
            }
            return (w, circles)
        }
        let (quiet, circles) = drifting()
        let (read, _) = drifting()
        let (queried, _) = drifting()
        for step in 0..<50 {
            for w in [quiet, read, queried] { w.step(dt: 1.0 / 60, substeps: 4) }
            if step % 9 == 4 { _ = read.snapshot() }
            #expect(queried.shapes(containing: queried.position(circles[step])).count >= 1)
        }
        var slow = 0
        for b in circles {
            let s = quiet.shapes(of: b)[0]
            let box = quiet.aabb(s)
            #expect(box == AABB(lower: quiet.position(b) - Vec2(5, 5), upper: quiet.position(b) + Vec2(5, 5)))
            for w in [read, queried] { #expect(w.aabb(s) == box) }
            if quiet.linearVelocity(b).length < 20 { slow += 1 }
        }
        // many would keep an older fat box in the queried world (the margin is 0.88 pt)
        #expect(slow > 20)
        for w in [quiet, read, queried] {
            for (k, b) in circles.enumerated() where k % 2 == 0 {
                w.setFilter(w.shapes(of: b)[0], Filter(categoryBits: 2, maskBits: 1))
            }
            var bd = BodyDef()
            bd.type = .static
            bd.position = Vec2(5_000, 5_000)
            var sd = ShapeDef()
            sd.filter = Filter(categoryBits: 4, maskBits: 2)
            w.createShape(on: w.createBody(bd), sd, .box(halfWidth: 10, halfHeight: 10, center: .zero, angle: 0))
        }
        for b in circles {
            let s = Int(quiet.shapes(of: b)[0].index)
            let box = quiet.shapes[s].aabb
            #expect(box == AABB(lower: quiet.position(b) - Vec2(5, 5), upper: quiet.position(b) + Vec2(5, 5)))
            #expect(quiet.shapes[s].fatAABB == quiet.fatBox(for: box))
            for w in [read, queried] {
                #expect(w.shapes[s].aabb == box)
                #expect(w.shapes[s].fatAABB == quiet.shapes[s].fatAABB, "circle \(b)")
            }
        }
        for w in [quiet, read, queried] { #expect(runValidated(w, steps: 60).isEmpty) }
        #expect(quiet.contactCount > 0)
        #expect(quiet.stateHash() == read.stateHash())
        #expect(quiet.stateHash() == queried.stateHash())
        #expect(quiet.contactCount == queried.contactCount)
    }

    /// The box pass computes quadrilaterals and triangles inline (`Shape.box(ofQuad:_:)`): after every
    /// step, every moving shape that meets something — boxes, triangles, pentagons, circles,
    /// turned and falling onto a floor — has exactly the box `Shape.computeAABB` gives its pose.
    @Test func theBoxPassGivesEveryShapeTheBoxOfItsPose() {
        let w = makeWorld(gravity: Vec2(0, 1000), sleep: false, validate: true)
        addBox(w, .static, at: Vec2(0, 400), half: Vec2(1000, 10))
        var rng = SplitMix64(seed: 77)
        for k in 0..<120 {
            var bd = BodyDef()
            bd.position = Vec2(Float(k % 15) * 40 - 300, Float(k / 15) * 40 - 200)
            bd.angle = uniform(-3...3, &rng)
            bd.angularVelocity = uniform(-5...5, &rng)
            let body = w.createBody(bd)
            let sides = [3, 4, 5, 0][k % 4]
            if sides == 0 {
                w.createShape(on: body, ShapeDef(), .circle(center: Vec2(2, 1), radius: 9))
            } else {
                let points = (0..<sides).map { i -> Vec2 in
                    let a = Float(i) * 2 * .pi / Float(sides) + uniform(-0.3...0.3, &rng)
                    return Vec2(12 * cos(a) + 3, 10 * sin(a) - 2)
                }
                w.createShape(on: body, ShapeDef(), .polygon(points))
            }
        }
        var checked = 0
        for _ in 0..<40 {
            w.step(dt: 1.0 / 60, substeps: 4)
            #expect(w.validationErrors.isEmpty)
            for i in 0..<w.shapes.count where w.shapes[i].isAlive && !w.shapes[i].isStaticProxy {
                let xf = w.bodies[Int(w.shapes[i].body)].transform
                #expect(w.shapes[i].aabb == w.shapes[i].computeAABB(xf), "shape \(i)")
                checked += 1
            }
        }
        #expect(checked == 40 * 120)
    }
}
