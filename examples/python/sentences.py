"""A small retrieval set written for this example: nine topics, four
sentences each, so every sentence has close and far neighbours."""

SENTENCES = [
    # cooking
    "Simmer the tomato sauce for twenty minutes before adding the basil.",
    "Knead the bread dough until it springs back when you press it.",
    "A cast-iron pan holds heat well enough to sear a steak properly.",
    "Whisk the eggs with a pinch of salt before pouring them into the skillet.",
    # astronomy
    "Jupiter's great red spot is a storm larger than the Earth.",
    "The telescope captured faint light from a galaxy billions of years old.",
    "A total solar eclipse happens when the Moon covers the Sun completely.",
    "Astronomers detected a new exoplanet orbiting a red dwarf star.",
    # programming
    "The function returns early when the input list is empty.",
    "Compile the project with warnings treated as errors.",
    "A memory leak slowly consumed all the RAM on the server.",
    "The unit tests failed after the database schema changed.",
    # football
    "The striker scored twice in the second half to win the match.",
    "The goalkeeper saved a penalty in the final minute.",
    "The coach changed the formation after the team conceded early.",
    "Fans filled the stadium for the championship final.",
    # weather
    "Heavy rain is expected across the north of the country tomorrow.",
    "A heatwave pushed temperatures above forty degrees.",
    "Thick fog delayed flights at the airport this morning.",
    "Snow fell overnight and closed the mountain roads.",
    # finance
    "The central bank raised interest rates by a quarter point.",
    "Shares of the company fell after its quarterly earnings report.",
    "Inflation slowed for the third month in a row.",
    "Investors moved their money into government bonds.",
    # health
    "Regular exercise lowers the risk of heart disease.",
    "The doctor prescribed antibiotics for the bacterial infection.",
    "Drinking enough water helps the kidneys work properly.",
    "A good night's sleep improves memory and concentration.",
    # music
    "The orchestra tuned their instruments before the concert began.",
    "She practised the piano sonata every evening for a month.",
    "The band released a new album with ten original songs.",
    "The guitarist broke a string in the middle of the solo.",
    # travel
    "We caught the night train from Vienna to Venice.",
    "The hotel room had a balcony overlooking the harbour.",
    "Remember to renew your passport before the trip abroad.",
    "The hiking trail climbs steeply to a lake above the valley.",
]
