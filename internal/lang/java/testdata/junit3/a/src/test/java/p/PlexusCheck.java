package p;

import org.codehaus.plexus.PlexusTestCase;

// The base class is in a jar: whether it extends TestCase is not known.
public class PlexusCheck extends PlexusTestCase {
    public void testComponent() {}
}
