package dev.bionerstream.viewer;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium from the operating system's packages, driven through its own chromedriver:
 * both paths are given, so Selenium Manager never looks for (or downloads) a browser or driver.
 * Debian's paths by default; {@code -Dviewer.chromium=} and {@code -Dviewer.chromedriver=} override
 * them.
 */
final class Browser implements AutoCloseable {
    private static final String CHROMIUM = System.getProperty("viewer.chromium", "/usr/bin/chromium");
    private static final String CHROMEDRIVER = System.getProperty("viewer.chromedriver", "/usr/bin/chromedriver");

    /**
     * Selenium warns "Unable to find CDP implementation matching N" when it has no selenium-devtools
     * artifact for the installed Chromium; the test drives the page over WebDriver and never uses
     * CDP, so the warning says nothing about it. Held here: a logger nobody references can be
     * collected, and its level with it.
     */
    private static final Logger CDP_VERSION_FINDER = Logger.getLogger("org.openqa.selenium.devtools.CdpVersionFinder");

    final ChromeDriver driver;

    private Browser(ChromeDriver driver) {
        this.driver = driver;
    }

    static Browser start() {
        for (String path : new String[] {CHROMIUM, CHROMEDRIVER}) {
            if (!new File(path).canExecute()) {
                throw new IllegalStateException(path + " is missing: the browser test needs Chromium and its driver "
                        + "(Debian: apt-get install chromium chromium-driver; .ci/run installs them)");
            }
        }
        CDP_VERSION_FINDER.setLevel(Level.SEVERE);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1400");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort()
                .withTimeout(Duration.ofMinutes(2))
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        // A busy machine renders slowly: page loads and scripts get minutes, not seconds.
        driver.manage().timeouts().pageLoadTimeout(Duration.ofMinutes(2));
        driver.manage().timeouts().scriptTimeout(Duration.ofMinutes(1));
        return new Browser(driver);
    }

    /** Saves what the browser shows as a PNG at {@code file}. */
    Path screenshot(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
    }

    @Override
    public void close() {
        driver.quit();
    }
}
