/**
 * Name, language and university tables for the corpus generator.
 */

export interface NameCulture {
  id: string;
  male: string[];
  female: string[];
  last: string[];
  /** Feminine surname forms, index-aligned with `last` (Slavic languages). */
  lastFemale?: string[];
  /** Native languages; one is picked per person. */
  languages: string[];
  /** Country whose universities people of this culture often attended (see UNIVERSITIES). */
  home: string[];
}

export const NAME_CULTURES: NameCulture[] = [
  {
    id: 'anglo',
    male: ['James', 'John', 'Robert', 'Michael', 'William', 'David', 'Richard', 'Joseph', 'Thomas', 'Christopher', 'Daniel', 'Matthew', 'Andrew', 'Ryan', 'Tyler', 'Ethan', 'Jack', 'Liam', 'Benjamin', 'Samuel', 'Nathan', 'Owen', 'Connor', 'Patrick'],
    female: ['Mary', 'Patricia', 'Jennifer', 'Linda', 'Elizabeth', 'Barbara', 'Susan', 'Jessica', 'Sarah', 'Karen', 'Emily', 'Ashley', 'Megan', 'Hannah', 'Olivia', 'Emma', 'Grace', 'Chloe', 'Lauren', 'Rachel', 'Abigail', 'Madison', 'Katherine', 'Rebecca'],
    last: ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller', 'Davis', 'Wilson', 'Anderson', 'Taylor', 'Thomas', 'Moore', 'Jackson', 'Martin', 'Thompson', 'White', 'Harris', 'Clark', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Hill', 'Green', 'Adams', 'Baker', 'Nelson', 'Carter', 'Mitchell', 'Roberts', 'Turner', 'Phillips', 'Campbell', 'Parker', 'Evans', 'Edwards', 'Collins', 'Stewart', 'Morris', 'Murphy', 'Cook', 'Rogers', 'Bennett', 'Hughes', 'Ward', 'Foster', "O'Brien", 'Sullivan'],
    languages: ['English'],
    home: [],
  },
  {
    id: 'hispanic',
    male: ['José', 'Juan', 'Carlos', 'Luis', 'Miguel', 'Javier', 'Alejandro', 'Diego', 'Fernando', 'Ricardo', 'Andrés', 'Jorge', 'Pablo', 'Santiago', 'Mateo', 'Sergio', 'Raúl', 'Eduardo'],
    female: ['María', 'Ana', 'Lucía', 'Sofía', 'Valentina', 'Camila', 'Isabella', 'Gabriela', 'Daniela', 'Paula', 'Mariana', 'Carmen', 'Elena', 'Laura', 'Fernanda', 'Adriana', 'Patricia', 'Natalia'],
    last: ['García', 'Rodríguez', 'Martínez', 'Hernández', 'López', 'González', 'Pérez', 'Sánchez', 'Ramírez', 'Torres', 'Flores', 'Rivera', 'Gómez', 'Díaz', 'Cruz', 'Morales', 'Reyes', 'Gutiérrez', 'Ortiz', 'Castillo', 'Jiménez', 'Ruiz', 'Vargas', 'Romero', 'Mendoza', 'Herrera', 'Medina', 'Aguilar', 'Castro', 'Vega'],
    languages: ['Spanish'],
    home: ['Mexico', 'Spain', 'Colombia', 'Argentina'],
  },
  {
    id: 'portuguese',
    male: ['João', 'Pedro', 'Lucas', 'Gabriel', 'Rafael', 'Gustavo', 'Felipe', 'Thiago', 'Bruno', 'Rodrigo', 'Tiago', 'Diogo', 'Leonardo', 'Matheus'],
    female: ['Maria', 'Ana', 'Beatriz', 'Juliana', 'Mariana', 'Larissa', 'Camila', 'Fernanda', 'Letícia', 'Carolina', 'Inês', 'Rita', 'Bianca', 'Luana'],
    last: ['Silva', 'Santos', 'Oliveira', 'Souza', 'Pereira', 'Costa', 'Ferreira', 'Rodrigues', 'Almeida', 'Carvalho', 'Lima', 'Gomes', 'Ribeiro', 'Martins', 'Araújo', 'Barbosa', 'Rocha', 'Fernandes', 'Cardoso', 'Moreira', 'Nascimento', 'Teixeira', 'Correia', 'Mendes'],
    languages: ['Portuguese'],
    home: ['Brazil', 'Portugal'],
  },
  {
    id: 'french',
    male: ['Louis', 'Hugo', 'Lucas', 'Thomas', 'Julien', 'Nicolas', 'Antoine', 'Maxime', 'Mathieu', 'Guillaume', 'Arnaud', 'Clément', 'Romain', 'Olivier'],
    female: ['Camille', 'Léa', 'Manon', 'Chloé', 'Inès', 'Sarah', 'Juliette', 'Pauline', 'Élodie', 'Claire', 'Margaux', 'Amélie', 'Céline', 'Mathilde'],
    last: ['Martin', 'Bernard', 'Dubois', 'Durand', 'Leroy', 'Moreau', 'Laurent', 'Simon', 'Michel', 'Lefebvre', 'Garnier', 'Rousseau', 'Fournier', 'Girard', 'Bonnet', 'Dupont', 'Lambert', 'Fontaine', 'Chevalier', 'Mercier', 'Blanc', 'Guérin', 'Faure', 'Perrin'],
    languages: ['French'],
    home: ['France'],
  },
  {
    id: 'italian',
    male: ['Marco', 'Alessandro', 'Luca', 'Matteo', 'Lorenzo', 'Andrea', 'Davide', 'Federico', 'Simone', 'Riccardo', 'Giovanni', 'Stefano'],
    female: ['Giulia', 'Francesca', 'Chiara', 'Sara', 'Martina', 'Giorgia', 'Valentina', 'Elisa', 'Alessia', 'Silvia', 'Federica', 'Elena'],
    last: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti', 'De Luca', 'Costa', 'Giordano', 'Mancini', 'Rizzo', 'Lombardi', 'Moretti'],
    languages: ['Italian'],
    home: ['Italy'],
  },
  {
    id: 'german',
    male: ['Lukas', 'Maximilian', 'Jonas', 'Felix', 'Leon', 'Paul', 'Tobias', 'Florian', 'Sebastian', 'Jan', 'Moritz', 'Stefan', 'Niklas', 'Philipp'],
    female: ['Anna', 'Lena', 'Laura', 'Julia', 'Sophie', 'Lea', 'Katharina', 'Johanna', 'Marie', 'Hannah', 'Sabine', 'Franziska', 'Miriam', 'Nina'],
    last: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann', 'Koch', 'Richter', 'Bauer', 'Klein', 'Wolf', 'Schröder', 'Neumann', 'Schwarz', 'Zimmermann', 'Braun', 'Krüger', 'Hartmann', 'Lange', 'Werner'],
    languages: ['German'],
    home: ['Germany', 'Switzerland'],
  },
  {
    id: 'dutch',
    male: ['Daan', 'Bram', 'Thijs', 'Ruben', 'Jesse', 'Stijn', 'Joris', 'Pieter', 'Willem', 'Sander', 'Koen', 'Niels'],
    female: ['Sanne', 'Lotte', 'Femke', 'Anouk', 'Eva', 'Lisa', 'Iris', 'Fleur', 'Noor', 'Maud', 'Sophie', 'Marloes'],
    last: ['de Jong', 'Jansen', 'de Vries', 'van den Berg', 'van Dijk', 'Bakker', 'Janssen', 'Visser', 'Smit', 'Meijer', 'de Boer', 'Mulder', 'de Groot', 'Bos', 'Vos', 'Peters', 'Hendriks', 'van Leeuwen', 'Dekker', 'Brouwer'],
    languages: ['Dutch'],
    home: ['Netherlands'],
  },
  {
    id: 'nordic',
    male: ['Erik', 'Lars', 'Johan', 'Anders', 'Mikael', 'Nils', 'Henrik', 'Magnus', 'Oskar', 'Gustav', 'Emil', 'Axel'],
    female: ['Astrid', 'Ingrid', 'Freja', 'Elin', 'Maja', 'Linnea', 'Ida', 'Karin', 'Saga', 'Sofia', 'Ebba', 'Sigrid'],
    last: ['Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Eriksson', 'Larsson', 'Olsson', 'Persson', 'Svensson', 'Gustafsson', 'Lindberg', 'Lindqvist', 'Berg', 'Hansen', 'Jensen', 'Nielsen', 'Pedersen', 'Haugen', 'Lund', 'Bergström', 'Sandberg', 'Holm'],
    languages: ['Swedish', 'Swedish', 'Norwegian', 'Danish'],
    home: ['Sweden'],
  },
  {
    id: 'polish',
    male: ['Jakub', 'Piotr', 'Tomasz', 'Paweł', 'Michał', 'Krzysztof', 'Marcin', 'Łukasz', 'Kamil', 'Mateusz', 'Adam', 'Bartosz'],
    female: ['Anna', 'Katarzyna', 'Magdalena', 'Agnieszka', 'Joanna', 'Aleksandra', 'Monika', 'Natalia', 'Zofia', 'Karolina', 'Ewa', 'Marta'],
    last: ['Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kowalczyk', 'Kamiński', 'Lewandowski', 'Zieliński', 'Szymański', 'Woźniak', 'Dąbrowski', 'Kozłowski', 'Jankowski', 'Mazur', 'Kwiatkowski', 'Krawczyk', 'Piotrowski', 'Grabowski', 'Nowakowski', 'Pawłowski'],
    lastFemale: ['Nowak', 'Kowalska', 'Wiśniewska', 'Wójcik', 'Kowalczyk', 'Kamińska', 'Lewandowska', 'Zielińska', 'Szymańska', 'Woźniak', 'Dąbrowska', 'Kozłowska', 'Jankowska', 'Mazur', 'Kwiatkowska', 'Krawczyk', 'Piotrowska', 'Grabowska', 'Nowakowska', 'Pawłowska'],
    languages: ['Polish'],
    home: ['Poland'],
  },
  {
    id: 'east_slavic',
    male: ['Alexander', 'Dmitry', 'Sergey', 'Andrey', 'Ivan', 'Mikhail', 'Nikolai', 'Oleksandr', 'Vladimir', 'Artem', 'Maxim', 'Yuri', 'Taras', 'Bohdan'],
    female: ['Anastasia', 'Olga', 'Natalia', 'Ekaterina', 'Irina', 'Yulia', 'Tatiana', 'Svetlana', 'Elena', 'Daria', 'Oksana', 'Kateryna', 'Iryna', 'Sofiia'],
    last: ['Ivanov', 'Smirnov', 'Kuznetsov', 'Popov', 'Volkov', 'Sokolov', 'Lebedev', 'Kozlov', 'Novikov', 'Morozov', 'Petrov', 'Pavlov', 'Fedorov', 'Orlov', 'Shevchenko', 'Kovalenko', 'Bondarenko', 'Tkachenko', 'Melnyk', 'Kravchenko'],
    lastFemale: ['Ivanova', 'Smirnova', 'Kuznetsova', 'Popova', 'Volkova', 'Sokolova', 'Lebedeva', 'Kozlova', 'Novikova', 'Morozova', 'Petrova', 'Pavlova', 'Fedorova', 'Orlova', 'Shevchenko', 'Kovalenko', 'Bondarenko', 'Tkachenko', 'Melnyk', 'Kravchenko'],
    languages: ['Ukrainian', 'Russian'],
    home: ['Ukraine'],
  },
  {
    id: 'chinese',
    male: ['Wei', 'Jun', 'Hao', 'Lei', 'Ming', 'Jie', 'Zhiwei', 'Haoran', 'Yifan', 'Yuxuan', 'Kai', 'Tao', 'Bo', 'Peng', 'Chao', 'Kevin', 'Jason', 'Eric'],
    female: ['Fang', 'Jing', 'Min', 'Yan', 'Hui', 'Xin', 'Ying', 'Ting', 'Xiaoli', 'Zihan', 'Jiahui', 'Siyu', 'Lin', 'Mei', 'Yue', 'Vivian', 'Grace', 'Cindy'],
    last: ['Wang', 'Li', 'Zhang', 'Liu', 'Chen', 'Yang', 'Huang', 'Zhao', 'Wu', 'Zhou', 'Xu', 'Sun', 'Ma', 'Zhu', 'Hu', 'Guo', 'He', 'Lin', 'Gao', 'Luo', 'Zheng', 'Liang', 'Xie', 'Tang'],
    languages: ['Mandarin', 'Mandarin', 'Mandarin', 'Cantonese'],
    home: ['China'],
  },
  {
    id: 'indian',
    male: ['Rahul', 'Amit', 'Rohan', 'Vikram', 'Arjun', 'Sanjay', 'Rajesh', 'Suresh', 'Karthik', 'Aditya', 'Nikhil', 'Pranav', 'Siddharth', 'Vivek', 'Anil', 'Manoj', 'Deepak', 'Harsha', 'Venkat', 'Arun'],
    female: ['Priya', 'Ananya', 'Divya', 'Pooja', 'Neha', 'Sneha', 'Kavya', 'Shreya', 'Lakshmi', 'Meera', 'Anjali', 'Deepika', 'Swati', 'Nisha', 'Aishwarya', 'Ritu', 'Sunita', 'Radhika', 'Keerthi', 'Bhavana'],
    last: ['Sharma', 'Patel', 'Singh', 'Kumar', 'Gupta', 'Reddy', 'Iyer', 'Nair', 'Rao', 'Agarwal', 'Mehta', 'Joshi', 'Desai', 'Menon', 'Pillai', 'Chatterjee', 'Banerjee', 'Mukherjee', 'Verma', 'Mishra', 'Shah', 'Kulkarni', 'Krishnan', 'Subramanian', 'Naidu', 'Bhat', 'Malhotra', 'Kapoor', 'Chopra', 'Srinivasan'],
    languages: ['Hindi', 'Hindi', 'Hindi', 'Tamil', 'Telugu', 'Kannada', 'Marathi', 'Bengali', 'Malayalam', 'Gujarati'],
    home: ['India'],
  },
  {
    id: 'arabic',
    male: ['Mohammed', 'Ahmed', 'Ali', 'Omar', 'Youssef', 'Khalid', 'Hassan', 'Ibrahim', 'Karim', 'Tariq', 'Samir', 'Faisal', 'Hamza', 'Rami', 'Ziad'],
    female: ['Fatima', 'Aisha', 'Mariam', 'Layla', 'Noor', 'Sara', 'Huda', 'Rania', 'Yasmin', 'Leila', 'Dina', 'Salma', 'Amira', 'Hana', 'Reem'],
    last: ['Al-Sayed', 'Haddad', 'Khalil', 'Nasser', 'Mansour', 'Hamdan', 'Saleh', 'Abdullah', 'Farouk', 'Aziz', 'Rahman', 'Hussein', 'Qasim', 'Al-Farsi', 'Al-Mansouri', 'Darwish', 'Youssef', 'Khoury', 'Shaheen', 'Barakat'],
    languages: ['Arabic'],
    home: ['Middle East'],
  },
  {
    id: 'west_african',
    male: ['Chinedu', 'Emeka', 'Oluwaseun', 'Tunde', 'Kwame', 'Kofi', 'Yaw', 'Babajide', 'Obinna', 'Segun', 'Femi', 'Chukwuemeka', 'Kwabena', 'Abubakar', 'Ikenna'],
    female: ['Ngozi', 'Chiamaka', 'Adaeze', 'Funmilayo', 'Yetunde', 'Abena', 'Ama', 'Akosua', 'Amina', 'Folake', 'Bisi', 'Nkechi', 'Efua', 'Zainab', 'Ifeoma'],
    last: ['Okafor', 'Adeyemi', 'Okonkwo', 'Balogun', 'Mensah', 'Owusu', 'Boateng', 'Asante', 'Adebayo', 'Nwosu', 'Eze', 'Okoro', 'Abubakar', 'Danjuma', 'Ogunleye', 'Oyelaran', 'Agyeman', 'Osei', 'Nwankwo', 'Bello'],
    languages: ['Yoruba', 'Igbo', 'Hausa', 'Twi'],
    home: ['West Africa'],
  },
  {
    id: 'japanese',
    male: ['Haruto', 'Takeshi', 'Hiroshi', 'Kenji', 'Daiki', 'Sho', 'Ryota', 'Kazuki', 'Yusuke', 'Takumi', 'Shota', 'Kenta', 'Naoki', 'Satoshi'],
    female: ['Yui', 'Aoi', 'Sakura', 'Yuna', 'Haruka', 'Misaki', 'Ayaka', 'Mai', 'Naomi', 'Emi', 'Kana', 'Rina', 'Saki', 'Keiko'],
    last: ['Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe', 'Ito', 'Yamamoto', 'Nakamura', 'Kobayashi', 'Kato', 'Yoshida', 'Yamada', 'Sasaki', 'Yamaguchi', 'Matsumoto', 'Inoue', 'Kimura', 'Hayashi', 'Shimizu', 'Mori'],
    languages: ['Japanese'],
    home: ['Japan'],
  },
  {
    id: 'korean',
    male: ['Min-jun', 'Seo-jun', 'Ji-hoon', 'Hyun-woo', 'Jae-won', 'Dong-hyun', 'Sung-min', 'Joon-ho', 'Tae-yang', 'Young-ho', 'Kyung-soo', 'Jin-woo'],
    female: ['Seo-yeon', 'Ji-woo', 'Min-seo', 'Ha-eun', 'Soo-ah', 'Ji-yeon', 'Eun-ji', 'Hye-jin', 'Yoon-seo', 'Da-eun', 'Su-bin', 'Ye-jin'],
    last: ['Kim', 'Lee', 'Park', 'Choi', 'Jung', 'Kang', 'Cho', 'Yoon', 'Jang', 'Lim', 'Han', 'Oh', 'Seo', 'Shin', 'Kwon', 'Hwang', 'Ahn', 'Song'],
    languages: ['Korean'],
    home: ['South Korea'],
  },
];

/** ASCII slug of a name: "Müller" → "muller", "de Jong" → "de-jong", "O'Brien" → "obrien". */
export function slugify(s: string): string {
  return s
    .replace(/ß/g, 'ss')
    .replace(/[Łł]/g, 'l')
    .replace(/[Øø]/g, 'o')
    .replace(/[Ææ]/g, 'ae')
    .replace(/[Đđ]/g, 'd')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/'/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Universities by country (keys used by metros' countries and cultures' `home`). */
export const UNIVERSITIES: Record<string, string[]> = {
  'United States': ['Stanford University', 'Massachusetts Institute of Technology', 'University of California, Berkeley', 'Carnegie Mellon University', 'University of Michigan', 'Georgia Institute of Technology', 'University of Texas at Austin', 'University of Washington', 'University of Illinois Urbana-Champaign', 'Cornell University', 'Columbia University', 'New York University', 'University of Southern California', 'Purdue University', 'Arizona State University', 'Penn State University', 'Ohio State University', 'University of Florida', 'Boston University', 'Northeastern University', 'University of California, Los Angeles', 'University of Wisconsin-Madison', 'Texas A&M University', 'Rutgers University', 'University of Minnesota', 'University of North Carolina at Chapel Hill', 'San Jose State University', 'University of Colorado Boulder', 'Northwestern University', 'Duke University', 'University of Pennsylvania', 'University of Maryland', 'Indiana University Bloomington', 'University of Georgia', 'Virginia Tech'],
  Canada: ['University of Toronto', 'University of Waterloo', 'University of British Columbia', 'McGill University', 'McMaster University', "Queen's University", 'Université de Montréal', 'University of Alberta', 'Simon Fraser University', 'University of Ottawa', 'Toronto Metropolitan University'],
  'United Kingdom': ['University of Oxford', 'University of Cambridge', 'Imperial College London', 'University College London', "King's College London", 'London School of Economics', 'University of Edinburgh', 'University of Manchester', 'University of Bristol', 'University of Warwick', 'University of Leeds', 'University of Glasgow'],
  Ireland: ['Trinity College Dublin', 'University College Dublin', 'Dublin City University', 'University of Galway', 'University College Cork'],
  Germany: ['Technical University of Munich', 'Ludwig Maximilian University of Munich', 'Humboldt University of Berlin', 'Technical University of Berlin', 'RWTH Aachen University', 'Karlsruhe Institute of Technology', 'Heidelberg University', 'University of Stuttgart', 'Free University of Berlin'],
  Switzerland: ['ETH Zurich', 'EPFL', 'University of Zurich', 'University of Geneva', 'University of St. Gallen'],
  Netherlands: ['Delft University of Technology', 'University of Amsterdam', 'Eindhoven University of Technology', 'Utrecht University', 'Erasmus University Rotterdam', 'Leiden University'],
  France: ['Sorbonne University', 'École Polytechnique', 'HEC Paris', 'CentraleSupélec', 'Sciences Po', 'Université Paris-Saclay', 'INSA Lyon', 'ESSEC Business School'],
  Spain: ['Universidad Complutense de Madrid', 'Universitat Politècnica de Catalunya', 'Universidad Politécnica de Madrid', 'Universitat de Barcelona', 'Universidad Autónoma de Madrid', 'IE University', 'Universitat Pompeu Fabra'],
  Portugal: ['Universidade de Lisboa', 'Universidade do Porto', 'Universidade NOVA de Lisboa', 'Universidade de Coimbra'],
  Italy: ['Politecnico di Milano', 'Sapienza University of Rome', 'University of Bologna', 'Bocconi University', 'Politecnico di Torino', 'University of Padua'],
  Sweden: ['KTH Royal Institute of Technology', 'Lund University', 'Uppsala University', 'Chalmers University of Technology', 'Stockholm University', 'Stockholm School of Economics'],
  Poland: ['University of Warsaw', 'Warsaw University of Technology', 'Jagiellonian University', 'AGH University of Krakow', 'Wrocław University of Science and Technology', 'Poznań University of Technology'],
  Ukraine: ['Taras Shevchenko National University of Kyiv', 'Igor Sikorsky Kyiv Polytechnic Institute', 'Lviv Polytechnic National University', 'Kharkiv National University of Radio Electronics', 'Lomonosov Moscow State University', 'Saint Petersburg State University', 'Moscow Institute of Physics and Technology'],
  China: ['Tsinghua University', 'Peking University', 'Fudan University', 'Shanghai Jiao Tong University', 'Zhejiang University', 'Nanjing University', 'University of Science and Technology of China', 'Wuhan University', 'Harbin Institute of Technology'],
  India: ['Indian Institute of Technology Bombay', 'Indian Institute of Technology Delhi', 'Indian Institute of Technology Madras', 'BITS Pilani', 'National Institute of Technology Tiruchirappalli', 'Anna University', 'University of Mumbai', 'Vellore Institute of Technology', 'Manipal Institute of Technology', 'University of Delhi', 'Jawaharlal Nehru Technological University', 'Savitribai Phule Pune University', 'Osmania University', 'Indian Institute of Management Ahmedabad'],
  Singapore: ['National University of Singapore', 'Nanyang Technological University', 'Singapore Management University', 'Singapore University of Technology and Design'],
  Australia: ['University of Sydney', 'University of Melbourne', 'UNSW Sydney', 'Monash University', 'Australian National University', 'University of Queensland', 'University of Technology Sydney', 'RMIT University'],
  Japan: ['University of Tokyo', 'Kyoto University', 'Keio University', 'Waseda University', 'Tokyo Institute of Technology', 'Osaka University', 'Tohoku University'],
  'South Korea': ['Seoul National University', 'KAIST', 'Yonsei University', 'Korea University', 'POSTECH', 'Sungkyunkwan University', 'Hanyang University'],
  Mexico: ['Universidad Nacional Autónoma de México', 'Tecnológico de Monterrey', 'Instituto Politécnico Nacional', 'Universidad Iberoamericana', 'ITAM'],
  Brazil: ['Universidade de São Paulo', 'Universidade Estadual de Campinas', 'Universidade Federal do Rio de Janeiro', 'Universidade Federal de Minas Gerais', 'Fundação Getulio Vargas', 'Insper'],
  Argentina: ['Universidad de Buenos Aires', 'Instituto Tecnológico de Buenos Aires', 'Universidad Torcuato Di Tella', 'Universidad Nacional de Córdoba'],
  Colombia: ['Universidad de los Andes', 'Universidad Nacional de Colombia', 'Pontificia Universidad Javeriana', 'Universidad EAFIT'],
  'Middle East': ['American University of Beirut', 'Cairo University', 'American University in Cairo', 'University of Jordan', 'Khalifa University', 'American University of Sharjah', 'King Saud University', 'United Arab Emirates University'],
  'United Arab Emirates': ['Khalifa University', 'American University of Sharjah', 'United Arab Emirates University', 'University of Dubai', 'Zayed University'],
  'West Africa': ['University of Lagos', 'University of Ibadan', 'Obafemi Awolowo University', 'University of Nigeria, Nsukka', 'Covenant University', 'University of Ghana', 'Kwame Nkrumah University of Science and Technology', 'Ahmadu Bello University'],
  Nigeria: ['University of Lagos', 'University of Ibadan', 'Obafemi Awolowo University', 'University of Nigeria, Nsukka', 'Covenant University', 'Lagos State University', 'Ahmadu Bello University'],
};
