fn main() {
    println!("{}", shapes::add(1, 2));
}

#[test]
fn in_main() {}
