// Port of ajrosario08/Dropit, Dropit/DropitBehavior.swift and Dropit/DropitViewContoller.swift (2015),
// Stanford CS193p's "Dropit": each tap drops a square, a tenth of the game view wide, into a random
// column from the top; a composite behaviour (gravity + a collision behaviour with the bounds) piles
// the squares up in their columns.
//
// Edits beyond deleting `UI`: `UIView` → `View`; `addSubview`/`removeFromSuperview` and colours
// dropped (there is no view hierarchy); `arc4random` → a seeded generator, so the test is
// repeatable; the tap → the test calls `drop()` twice a second; the display link → `step()`.
import Dynamics
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
        var random = SplitMix(seed: 2015)

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

    /// SplitMix64, for repeatable "random" columns.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func dropsPileUpInsideTheGameViewAndComeToRest() throws {
        let vc = DropitViewContoller()
        vc.viewDidLoad()
        for _ in 0..<30 {
            vc.drop()
            vc.animator.advance(by: 0.5)
        }
        // The pile settles and the animator pauses after the last drop (drops jostle, slide and
        // turn on their way: no friction here). How long it takes is chaotic, not a property of the
        // solver: a frictionless square rocking in the V between two others loses energy only to
        // the solver. Over ten seeds (2015, 1…9) the pile paused after 3.8, 2.1, –, 11.1, 9.8, 4.9,
        // –, 7.4, 5.8, – s with sequential contact points (– : still rocking at 20 s) and after 7.7,
        // 9.6, 3.6, 3.4, –, –, 12.9, 3.8, 2.2, 3.9 s with the block solve (ContactBlock). This seed
        // rested in 3.8 s before and 7.7 s now; the bound is the test's 10 s run. UIKit's engine
        // gives items without an item behaviour friction 0.2 (measured, reference §5): that, not
        // the solver, is what settles such piles on iOS — still an open question here.
        _ = try #require(runUntil(vc.animator, seconds: 10) { !vc.animator.isRunning })
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
